// Result.Publisher's specialised operators, as in Combine: each is evaluated when the operator is
// applied (not when a subscriber arrives) and returns another `Result.Publisher` (or `Empty`),
// so `Result<Int, E>.Publisher(1).map { $0 + 1 }.result` is `.success(2)` at once. A failed
// result stays failed: the closures run only on a success.

extension Result.Publisher {
    /// The same result: one value has no duplicates.
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// The value, unless the comparison (of the value with itself) throws.
    public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool) -> Result<Output, Error>.Publisher {
        Result<Output, Error>.Publisher(
            result.mapError { $0 as Error }.flatMap { output in
                Result<Output, Error> {
                    _ = try predicate(output, output); return output
                }
            })
    }

    /// Whether the value passes the test.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Whether the value passes the test, or the error the test threw.
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
        Result<Bool, Error>.Publisher(result.tryMapping(predicate))
    }

    /// Whether the value passes the test.
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Whether the value passes the test, or the error the test threw.
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
        Result<Bool, Error>.Publisher(result.tryMapping(predicate))
    }

    /// The value in an array.
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(result.map { [$0] })
    }

    /// One: the number of values.
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(result.map { _ in 1 })
    }

    /// The same result: its one value is the first.
    public func first() -> Result<Output, Failure>.Publisher { self }

    /// The same result: its one value is the last.
    public func last() -> Result<Output, Failure>.Publisher { self }

    /// The same result: one value is its own minimum (the closure is not called).
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// The value, unless the comparison (of the value with itself) throws.
    public func tryMin(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, Error>.Publisher {
        tryRemoveDuplicates(by: areInIncreasingOrder)
    }

    /// The same result: one value is its own maximum (the closure is not called).
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// The value, unless the comparison (of the value with itself) throws.
    public func tryMax(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, Error>.Publisher {
        tryRemoveDuplicates(by: areInIncreasingOrder)
    }

    /// A publisher that finishes at once, whatever the result (as Combine's does).
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty<Output, Failure>()
    }

    /// The transformed value.
    public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map(transform))
    }

    /// The transformed value, or the error the closure threw.
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, Error>.Publisher {
        Result<T, Error>.Publisher(result.tryMapping(transform))
    }

    /// The transformed failure.
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(result.mapError(transform))
    }

    /// The value, or `output` in place of the failure.
    public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
        Result<Output, Never>.Publisher(.success(result.value(or: output)))
    }

    /// The same result: it is never empty.
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher { self }

    /// The same result: another attempt gives the same outcome.
    public func retry(_ times: Int) -> Result<Output, Failure>.Publisher { self }

    /// `nextPartialResult(initialResult, value)`.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// `nextPartialResult(initialResult, value)`, or the error it threw.
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
        -> Result<T, Error>.Publisher
    {
        Result<T, Error>.Publisher(result.tryMapping { try nextPartialResult(initialResult, $0) })
    }

    /// `nextPartialResult(initialResult, value)`: the one step of the scan.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// `nextPartialResult(initialResult, value)`, or the error it threw.
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
        -> Result<T, Error>.Publisher
    {
        Result<T, Error>.Publisher(result.tryMapping { try nextPartialResult(initialResult, $0) })
    }
}

extension Result.Publisher where Output: Equatable {
    /// Whether the value equals `output`.
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }

    /// The same result: one value has no duplicates.
    public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Output: Comparable {
    /// The same result: one value is its own minimum.
    public func min() -> Result<Output, Failure>.Publisher { self }

    /// The same result: one value is its own maximum.
    public func max() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Failure == Never {
    /// The same value, typed with a failure that never happens.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(.success(result.get()))
    }
}

extension Result {
    /// The success transformed by a closure that may throw, or the failure (as `Error`).
    func tryMapping<T>(_ transform: (Success) throws -> T) -> Result<T, Error> {
        switch self {
        case .success(let value): Result<T, Error> { try transform(value) }
        case .failure(let error): .failure(error)
        }
    }

    /// The success, or `fallback` for a failure.
    func value(or fallback: @autoclosure () -> Success) -> Success {
        switch self {
        case .success(let value): value
        case .failure: fallback()
        }
    }
}
