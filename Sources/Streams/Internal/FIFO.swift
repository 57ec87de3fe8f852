/// A first-in, first-out queue: an array read from a moving head, so that taking the oldest
/// element costs no shifting. The space of taken elements is given back when the queue empties,
/// or once they are at least half of the array (and 32 or more), so a queue that never quite
/// empties does not grow without bound.
///
/// The one queue of the module's operators: the ``Outbox``'s pending values, each zip upstream's
/// values in ``ComboStore``, ``Publishers/Buffer``'s buffer and ``FlatMapEngine``'s waiting
/// values. Not thread-safe: its owner keeps it under its lock. Inlinable, so it costs what the
/// hand-written array and head did.
@usableFromInline
struct FIFO<Element> {
    @usableFromInline var elements: [Element] = []
    @usableFromInline var head = 0

    @inlinable init() {}

    /// How many elements wait.
    @inlinable var count: Int { elements.count - head }

    @inlinable var isEmpty: Bool { head == elements.count }

    /// The oldest element (the queue must not be empty).
    @inlinable var first: Element { elements[head] }

    /// The elements waiting, oldest first.
    @inlinable var waiting: ArraySlice<Element> { elements[head...] }

    @inlinable
    mutating func append(_ element: Element) {
        elements.append(element)
    }

    /// Takes the oldest element (the queue must not be empty).
    @inlinable
    mutating func popFirst() -> Element {
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Replaces the newest element (the queue must not be empty).
    @inlinable
    mutating func replaceLast(with element: Element) {
        elements[elements.count - 1] = element
    }

    /// Empties the queue, handing back what it held (to release outside a lock).
    @inlinable
    mutating func takeAll() -> FIFO {
        var taken = FIFO()
        swap(&taken, &self)
        return taken
    }
}
