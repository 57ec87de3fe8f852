// Publishers.Sequence's specialised operators, as in Combine, so `[1, 2].publisher.filter { $0 > 1 }`
// is still a `Publishers.Sequence`. map, filter and compactMap stay lazy (a lazy sequence, run
// per subscription: no array is built, and the chain is specialised in the caller's module),
// where Combine builds an array at once; the others work on the sequence when applied (an
// infinite sequence never returns) and return a sequence or single-result publisher.

extension Publishers.Sequence {
    /// A sequence publisher of the transformed elements (lazy: the closure runs as values are
    /// delivered, for each subscription).
    @inlinable
    public func map<T>(_ transform: @escaping (Elements.Element) -> T) -> Publishers.Sequence<LazyMapSequence<Elements, T>, Failure> {
        Publishers.Sequence<LazyMapSequence<Elements, T>, Failure>(sequence: sequence.lazy.map(transform))
    }

    /// A sequence publisher of the elements that pass the test (lazy).
    @inlinable
    public func filter(_ isIncluded: @escaping (Elements.Element) -> Bool) -> Publishers.Sequence<LazyFilterSequence<Elements>, Failure> {
        Publishers.Sequence<LazyFilterSequence<Elements>, Failure>(sequence: sequence.lazy.filter(isIncluded))
    }

    /// A sequence publisher of the non-`nil` transformed elements (lazy).
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Elements.Element) -> T?)
        -> Publishers.Sequence<LazyMapSequence<LazyFilterSequence<LazyMapSequence<Elements, T?>>, T>, Failure>
    {
        Publishers.Sequence(sequence: sequence.lazy.compactMap(transform))
    }

    /// A sequence publisher of the running accumulation.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T)
        -> Publishers.Sequence<[T], Failure>
    {
        var accumulated = initialResult
        return Publishers.Sequence<[T], Failure>(sequence: sequence.map { element in
            accumulated = nextPartialResult(accumulated, element)
            return accumulated
        })
    }

    /// A sequence publisher without elements that equal the one before them.
    public func removeDuplicates(by predicate: (Elements.Element, Elements.Element) -> Bool)
        -> Publishers.Sequence<[Elements.Element], Failure>
    {
        var result: [Elements.Element] = []
        for element in sequence where result.last.map({ !predicate($0, element) }) ?? true {
            result.append(element)
        }
        return Publishers.Sequence<[Elements.Element], Failure>(sequence: result)
    }

    /// A sequence publisher without the first `count` elements.
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
    }

    /// A sequence publisher without the leading elements that pass the test.
    public func drop(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// A sequence publisher of at most the first `maxLength` elements.
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
    }

    /// A sequence publisher of the leading elements that pass the test.
    public func prefix(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence.prefix(while: predicate)))
    }

    /// The number of elements.
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(sequence.reduce(0) { count, _ in count + 1 })
    }

    /// The accumulation of all elements.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Elements.Element) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(sequence.reduce(initialResult, nextPartialResult))
    }

    /// All elements in one array.
    public func collect() -> Result<[Elements.Element], Failure>.Publisher {
        Result<[Elements.Element], Failure>.Publisher(Array(sequence))
    }

    /// Whether any element passes the test.
    public func contains(where predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.contains(where: predicate))
    }

    /// Whether every element passes the test.
    public func allSatisfy(_ predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.allSatisfy(predicate))
    }

    /// An empty publisher that finishes.
    public func ignoreOutput() -> Empty<Elements.Element, Failure> { Empty() }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// A sequence publisher without elements equal to the one before them.
    public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
        removeDuplicates(by: ==)
    }

    /// Whether any element equals `output`.
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.contains(output))
    }
}

extension Publishers.Sequence where Failure == Never {
    /// The first element, if any.
    public func first() -> Optional<Elements.Element>.Publisher {
        Optional.Publisher(sequence.first { _ in true })
    }

    /// The first element that passes the test, if any.
    public func first(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional.Publisher(sequence.first(where: predicate))
    }

    /// The smallest element, if any.
    public func min(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// The largest element, if any.
    public func max(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional.Publisher(sequence.max(by: areInIncreasingOrder))
    }

    /// The same sequence with the given failure type.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.Sequence<Elements, E> {
        Publishers.Sequence<Elements, E>(sequence: sequence)
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// The smallest element, if any.
    public func min() -> Optional<Elements.Element>.Publisher { min(by: <) }

    /// The largest element, if any.
    public func max() -> Optional<Elements.Element>.Publisher { max(by: <) }
}

extension Publishers.Sequence where Failure == Never, Elements: BidirectionalCollection {
    /// The last element, if any.
    public func last() -> Optional<Elements.Element>.Publisher { Optional.Publisher(sequence.last) }

    /// The last element that passes the test, if any.
    public func last(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional.Publisher(sequence.last(where: predicate))
    }
}
