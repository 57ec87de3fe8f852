extension Publishers {
    /// A publisher that emits all of one publisher's elements before those from another
    /// publisher.
    ///
    /// Values from the prefix are forwarded as they arrive. The suffix is subscribed only after
    /// the prefix finishes, and is asked for the demand still outstanding. If the prefix fails,
    /// the failure goes downstream and the suffix is never subscribed. Cancelling cancels
    /// whichever publisher is current.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
        /// The shared output type.
        public typealias Output = Suffix.Output
        /// The shared failure type.
        public typealias Failure = Suffix.Failure

        /// The publisher to republish, in its entirety, before republishing elements from `suffix`.
        public let prefix: Prefix
        /// The publisher to republish only after `prefix` finishes.
        public let suffix: Suffix

        /// Creates a concatenating publisher.
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        /// Subscribes to the prefix; the suffix follows when the prefix finishes.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = Relay(
                downstream: subscriber, name: "Concatenate",
                early: [.cancelLateSubscription, .dropExcessValues, .forwardZeroRequests])
            let suffix = self.suffix
            prefix.subscribe(
                RelaySide<Output, Failure, S>(relay: relay) { completion in
                    guard case .finished = completion else {
                        relay.complete(completion)
                        return
                    }
                    guard let generation = relay.detach() else { return }
                    suffix.subscribe(
                        RelaySide<Output, Failure, S>(
                            relay: relay, generation: generation, onCompletion: relay.complete))
                }
            )
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publisher {
    /// Appends this publisher's output with the elements emitted by the given publisher.
    ///
    /// `other` is subscribed only after this publisher finishes.
    @inlinable
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }

    /// Appends the specified elements after this publisher finishes.
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Appends the elements of a sequence after this publisher finishes.
    public func append<S: Swift.Sequence>(_ elements: S)
        -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where S.Element == Output {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes this publisher's output with the elements emitted by the given publisher.
    @inlinable
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }

    /// Prefixes this publisher's output with the specified values.
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes this publisher's output with the elements of a sequence.
    public func prepend<S: Swift.Sequence>(_ elements: S)
        -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where S.Element == Output {
        prepend(Publishers.Sequence(sequence: elements))
    }
}
