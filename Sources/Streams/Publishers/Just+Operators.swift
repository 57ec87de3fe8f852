// Just's specialised operators, as in Combine: each is evaluated at once (when the operator is
// applied, not when a subscriber arrives) and returns the simplest publisher of the result, so
// `Just(1).map { $0 + 1 }` is a `Just<Int>`.

extension Just {
    /// A `Just` of the transformed value (the closure runs now).
    public func map<T>(_ transform: (Output) -> T) -> Just<T> {
        Just<T>(transform(output))
    }

    /// The transformed value, or the error the closure threw (the closure runs now).
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, Error>.Publisher {
        Result<T, Error>.Publisher(Result { try transform(output) })
    }

    /// The value if it passes the test, else nothing.
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional.Publisher(isIncluded(output) ? output : nil)
    }

    /// The transformed value, or nothing if the transform returned `nil`.
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional.Publisher(transform(output))
    }

    /// The value if it passes the test, else nothing.
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        filter(predicate)
    }

    /// The value if it passes the test, else nothing.
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        filter(predicate)
    }

    /// Itself: its one value is the first.
    public func first() -> Just<Output> { self }

    /// Itself: its one value is the last.
    public func last() -> Just<Output> { self }

    /// Itself: one value has no duplicates.
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

    /// One: the number of values.
    public func count() -> Just<Int> { Just<Int>(1) }

    /// The value in an array.
    public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

    /// Whether the value passes the test.
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Whether the value passes the test.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Itself: one value is its own minimum.
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Itself: one value is its own maximum.
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// The accumulation of the initial result and the value.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// The accumulation of the initial result and the value (one step of a scan).
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// Nothing if `count` is positive, else the value.
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        precondition(count >= 0, "dropFirst: count must not be negative")
        return Optional.Publisher(count > 0 ? nil : output)
    }

    /// The value if `maxLength` is positive, else nothing.
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        precondition(maxLength >= 0, "prefix: maxLength must not be negative")
        return Optional.Publisher(maxLength > 0 ? output : nil)
    }

    /// The value if `index` is 0, else nothing.
    public func output(at index: Int) -> Optional<Output>.Publisher {
        precondition(index >= 0, "output(at:): index must not be negative")
        return Optional.Publisher(index == 0 ? output : nil)
    }

    /// An empty publisher that finishes.
    public func ignoreOutput() -> Empty<Output, Never> { Empty() }

    /// Itself: a `Just` has no error to replace.
    public func replaceError(with output: Output) -> Just<Output> { self }

    /// Itself: a `Just` is never empty.
    public func replaceEmpty(with output: Output) -> Just<Output> { self }

    /// Itself: a `Just` never fails, so it is never retried.
    public func retry(_ retries: Int) -> Just<Output> { self }

    /// A publisher of the value with the given failure type.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }

    /// A publisher of the value with the given failure type (there is no error to map).
    public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }
}

extension Just where Output: Equatable {
    /// Itself: one value has no duplicates.
    public func removeDuplicates() -> Just<Output> { self }

    /// Whether the value equals `output`.
    public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }
}

extension Just where Output: Comparable {
    /// Itself: one value is its own minimum.
    public func min() -> Just<Output> { self }

    /// Itself: one value is its own maximum.
    public func max() -> Just<Output> { self }
}

// Just's specialised throwing operators, as in Combine: each runs its closure when applied and
// returns a `Result<…, Error>.Publisher` of the outcome.
extension Just {
    /// Whether the value passes the test, or the error the test threw.
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
        Result<Bool, Error>.Publisher(Result { try predicate(output) })
    }

    /// Whether the value passes the test, or the error the test threw.
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
        Result<Bool, Error>.Publisher(Result { try predicate(output) })
    }

    /// The value, unless the comparison (of the value with itself) throws.
    public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool) -> Result<Output, Error>.Publisher {
        Result<Output, Error>.Publisher(
            Result {
                _ = try predicate(output, output); return output
            })
    }

    /// The value, unless the comparison (of the value with itself) throws.
    public func tryMin(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, Error>.Publisher {
        tryRemoveDuplicates(by: areInIncreasingOrder)
    }

    /// The value, unless the comparison (of the value with itself) throws.
    public func tryMax(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, Error>.Publisher {
        tryRemoveDuplicates(by: areInIncreasingOrder)
    }

    /// `nextPartialResult(initialResult, value)`, or the error it threw.
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
        -> Result<T, Error>.Publisher
    {
        Result<T, Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// `nextPartialResult(initialResult, value)` (one step of a scan), or the error it threw.
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
        -> Result<T, Error>.Publisher
    {
        Result<T, Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
    }
}

// Just's specialised sequence-shaped operators, as in Combine.
extension Just {
    /// The value unless it passes the test (then nothing).
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional.Publisher(predicate(output) ? nil : output)
    }

    /// The value if it passes the test, else nothing.
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional.Publisher(predicate(output) ? output : nil)
    }

    /// The value if the range, taken relative to all non-negative indices, starts at 0; else
    /// nothing. As Combine's, an empty range starting at 0 keeps the value.
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        Optional.Publisher(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
    }

    /// A sequence publisher of `elements` followed by the value.
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Failure> {
        prepend(elements)
    }

    /// A sequence publisher of `elements` followed by the value.
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Failure>
    where S.Element == Output {
        var all: [Output] = []
        all.reserveCapacity(elements.underestimatedCount + 1)
        all.append(contentsOf: elements)
        all.append(output)
        return Publishers.Sequence(sequence: all)
    }

    /// A sequence publisher of the value followed by `elements`.
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Failure> {
        append(elements)
    }

    /// A sequence publisher of the value followed by `elements`.
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Failure>
    where S.Element == Output {
        var all = [output]
        all.append(contentsOf: elements)
        return Publishers.Sequence(sequence: all)
    }
}
