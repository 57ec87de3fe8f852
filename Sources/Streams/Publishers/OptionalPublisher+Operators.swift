// Optional.Publisher's specialised operators, as in Combine: each is evaluated when the operator
// is applied and returns another `Optional.Publisher` (or `Just`, or `Empty`), so
// `Optional.Publisher(1).map { $0 + 1 }` equals `Optional.Publisher(2)`. The closures run only
// when there is a value.

extension Optional.Publisher {
    /// Whether the value passes the test; no value gives no result.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// The value in an array; no value gives an empty array.
    public func collect() -> Optional<[Output]>.Publisher {
        Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
    }

    /// The transformed value, or nothing if there is none or the transform returned `nil`.
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.flatMap(transform))
    }

    /// The same publisher: one value is its own minimum (the closure is not called).
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// The same publisher: one value is its own maximum (the closure is not called).
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// Whether the value passes the test; no value gives no result.
    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// One if there is a value; no value gives no result (as Combine's does).
    public func count() -> Optional<Int>.Publisher {
        Optional<Int>.Publisher(output.map { _ in 1 })
    }

    /// Nothing once `count` is positive, else the same publisher.
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        precondition(count >= 0, "count must not be negative")
        return count == 0 ? self : Optional<Output>.Publisher(nil)
    }

    /// Nothing if the value passes the test, else the same publisher.
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
    }

    /// The same publisher: its one value is the first.
    public func first() -> Optional<Output>.Publisher { self }

    /// The value if it passes the test, else nothing.
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// The same publisher: its one value is the last.
    public func last() -> Optional<Output>.Publisher { self }

    /// The value if it passes the test, else nothing.
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// The value if it passes the test, else nothing.
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// A publisher that finishes at once.
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty<Output, Failure>()
    }

    /// The transformed value.
    public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map(transform))
    }

    /// The value at index 0, else nothing.
    public func output(at index: Int) -> Optional<Output>.Publisher {
        precondition(index >= 0, "index must not be negative")
        return index == 0 ? self : Optional<Output>.Publisher(nil)
    }

    /// The value if the range (taken relative to all non-negative indices) includes index 0.
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        let range = range.relative(to: 0..<Int.max)
        precondition(range.lowerBound >= 0, "lowerBound must not be negative")
        precondition(range.upperBound < .max - 1, "upperBound must be below Int.max - 1")
        return range.lowerBound == 0 && range.upperBound > 0 ? self : Optional<Output>.Publisher(nil)
    }

    /// The same publisher if `maxLength` is positive, else nothing.
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        precondition(maxLength >= 0, "maxLength must not be negative")
        return maxLength > 0 ? self : Optional<Output>.Publisher(nil)
    }

    /// The value if it passes the test, else nothing.
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// `nextPartialResult(initialResult, value)`; no value gives no result.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// `nextPartialResult(initialResult, value)`: the one step of the scan.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// The same publisher: one value has no duplicates (the closure is not called).
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// A `Just` of the value, or of `output` if there is none.
    public func replaceEmpty(with output: Output) -> Just<Output> {
        Just(self.output ?? output)
    }

    /// The same publisher: it cannot fail.
    public func replaceError(with output: Output) -> Optional<Output>.Publisher { self }

    /// The same publisher: it cannot fail.
    public func retry(_ times: Int) -> Optional<Output>.Publisher { self }
}

extension Optional.Publisher where Output: Equatable {
    /// Whether the value equals `output`; no value gives no result.
    public func contains(_ output: Output) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }

    /// The same publisher: one value has no duplicates.
    public func removeDuplicates() -> Optional<Output>.Publisher { self }
}

extension Optional.Publisher where Output: Comparable {
    /// The same publisher: one value is its own minimum.
    public func min() -> Optional<Output>.Publisher { self }

    /// The same publisher: one value is its own maximum.
    public func max() -> Optional<Output>.Publisher { self }
}
