// Publishers.Sequence's specialised operators, as in Combine, so `[1, 2].publisher.filter { $0 > 1 }`
// is still a `Publishers.Sequence`. Each works on the sequence when applied (an infinite sequence
// never returns) and returns Combine's type: an array-backed sequence publisher for map, filter,
// compactMap and the like, a single-result publisher for the aggregates.

extension Publishers.Sequence {
    /// A sequence publisher of the transformed elements (the closure runs now, once per element).
    @inlinable
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
    }

    /// A sequence publisher of the elements that pass the test (the closure runs now).
    @inlinable
    public func filter(_ isIncluded: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// A sequence publisher of the non-`nil` transformed elements (the closure runs now).
    @inlinable
    public func compactMap<T>(_ transform: (Elements.Element) -> T?) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
    }

    /// A sequence publisher of the elements, with `output` in place of each `nil`.
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Elements.Element], Failure>
    where Elements.Element == T? {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.map { $0 ?? output })
    }

    /// Whether every element passes the test, or the error the test threw.
    public func tryAllSatisfy(_ predicate: (Elements.Element) throws -> Bool) -> Result<Bool, Error>.Publisher {
        Result<Bool, Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
    }

    /// Whether any element passes the test, or the error the test threw.
    public func tryContains(where predicate: (Elements.Element) throws -> Bool) -> Result<Bool, Error>.Publisher {
        Result<Bool, Error>.Publisher(Result { try sequence.contains(where: predicate) })
    }

    /// The accumulation of all elements, or the error the closure threw.
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Elements.Element) throws -> T)
        -> Result<T, Error>.Publisher
    {
        Result<T, Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }

    /// A sequence publisher of the running accumulation.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T)
        -> Publishers.Sequence<[T], Failure>
    {
        var accumulated = initialResult
        return Publishers.Sequence<[T], Failure>(
            sequence: sequence.map { element in
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
    public func drop(while predicate: (Elements.Element) -> Bool)
        -> Publishers.Sequence<DropWhileSequence<Elements>, Failure>
    {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// A sequence publisher of at most the first `maxLength` elements.
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
    }

    /// A sequence publisher of the leading elements that pass the test.
    public func prefix(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure>
    {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence.prefix(while: predicate)))
    }

    /// The number of elements.
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(sequence.reduce(0) { count, _ in count + 1 })
    }

    /// The accumulation of all elements.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Elements.Element) -> T)
        -> Result<T, Failure>.Publisher
    {
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
    public func min(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool)
        -> Optional<Elements.Element>.Publisher
    {
        Optional.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// The largest element, if any.
    public func max(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool)
        -> Optional<Elements.Element>.Publisher
    {
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

extension Publishers.Sequence where Elements: Collection {
    /// The number of elements (a collection knows it without being iterated by the publisher).
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(sequence.count)
    }

    /// A sequence publisher of the elements at the positions in `range`.
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[range]))
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// The element at `index`, or nothing if the collection has no such position.
    public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
        let valid = sequence.indices.contains(index)
        return Optional.Publisher(valid ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// The number of elements, as a `Just`.
    public func count() -> Just<Int> {
        Just(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// A sequence publisher of `elements` followed by this one's, in a collection of the same
    /// type.
    public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// A sequence publisher of `elements` followed by this one's, in a collection of the same
    /// type.
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where S.Element == Elements.Element {
        var all = Elements()
        all.reserveCapacity(sequence.count + elements.underestimatedCount)
        all.append(contentsOf: elements)
        all.append(contentsOf: sequence)
        return Publishers.Sequence(sequence: all)
    }

    /// A sequence publisher of `publisher`'s elements followed by this one's.
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        var all = publisher.sequence
        all.append(contentsOf: sequence)
        return Publishers.Sequence(sequence: all)
    }

    /// A sequence publisher of this one's elements followed by `elements`.
    public func append(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// A sequence publisher of this one's elements followed by `elements`.
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where S.Element == Elements.Element {
        var all = sequence
        all.append(contentsOf: elements)
        return Publishers.Sequence(sequence: all)
    }

    /// A sequence publisher of this one's elements followed by `publisher`'s.
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}
