extension Result {
    /// A publisher that publishes a result to each subscriber once: a success value on demand
    /// (then `.finished`), or the failure at once.
    public struct Publisher: Streams.Publisher {
        /// The success type.
        public typealias Output = Success
        // `Failure` is the result's own failure type (inferred from `receive(subscriber:)`).

        /// The result to deliver to each subscriber.
        public let result: Result<Success, Failure>

        /// Creates a publisher that delivers `result`.
        public init(_ result: Result<Success, Failure>) {
            self.result = result
        }

        /// Creates a publisher that sends `output` then finishes.
        public init(_ output: Success) {
            self.result = .success(output)
        }

        /// Creates a publisher that fails immediately with `failure`.
        public init(_ failure: Failure) {
            self.result = .failure(failure)
        }

        /// Delivers the success value on demand, or the failure at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
            switch result {
            case .success(let output):
                subscriber.receive(
                    subscription: JustSubscription(name: .once, output: output) {
                        _ = subscriber.receive(output)
                        subscriber.receive(completion: .finished)
                    }
                )
            case .failure(let error):
                Fail<Success, Failure>(error: error).receive(subscriber: subscriber)
            }
        }
    }

    /// A publisher of this result.
    public var publisher: Publisher {
        Publisher(self)
    }
}

/// Two result publishers are equal when their results are.
extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
