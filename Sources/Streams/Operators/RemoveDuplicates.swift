extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element.
    ///
    /// Each suppressed duplicate is replaced by a demand of one from the upstream. The previous
    /// element is kept per subscription and touched only from the upstream's serialised calls.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that returns `true` if two elements are equivalent (the second is dropped).
        public let predicate: (Output, Output) -> Bool

        /// Creates a duplicate-removing publisher.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a duplicate-removing subscription to the upstream: the downstream sees a
        /// subscription of its own (Combine's "RemoveDuplicates"), and each dropped duplicate is
        /// replaced by a demand of one.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            let previous = StepState<Output?>(nil)
            upstream.subscribeStepping(
                subscriber,
                name: "RemoveDuplicates",
                early: [.trap, .cancelLateSubscription],
                reflect: { [downstreamChild($0), ("last", previous.value as Any)] },
                mapFailure: { $0 }
            ) { input in
                if let last = previous.value, predicate(last, input) { return .skip }
                previous.value = input
                return .emit(input)
            }
        }
    }
}

extension Publisher where Output: Equatable {
    /// Publishes only elements that don't match the previous element (by `==`).
    @inlinable
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as judged by `predicate`.
    @inlinable
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Publishers.RemoveDuplicates<Self>
    {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}
