extension Optional {
    /// A publisher that publishes an optional value to each subscriber exactly once, if the
    /// optional has a value, then finishes; an empty optional just finishes.
    public struct Publisher: Streams.Publisher {
        /// The wrapped type.
        public typealias Output = Wrapped
        /// It never fails.
        public typealias Failure = Never

        /// The optional value the publisher publishes, if any.
        public let output: Wrapped?

        /// Creates a publisher of the optional's value.
        public init(_ output: Output?) {
            self.output = output
        }

        /// Delivers the value (on demand, like `Just`) or finishes at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
            if let output {
                subscriber.receive(
                    subscription: JustSubscription(name: .optional, output: output) {
                        _ = subscriber.receive(output)
                        subscriber.receive(completion: .finished)
                    }
                )
            } else {
                Empty<Wrapped, Never>().receive(subscriber: subscriber)
            }
        }
    }

    /// A publisher of this optional's value, if any.
    public var publisher: Publisher {
        Publisher(self)
    }
}

/// Two optional publishers are equal when their values are.
extension Optional.Publisher: Equatable where Wrapped: Equatable {}
