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

        /// Subscribes a duplicate-removing subscriber to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }

        /// Passes the upstream subscription through. The previous element and the finished flag
        /// are only touched from the upstream's serialised calls; after the first completion
        /// nothing more is forwarded.
        @usableFromInline
        final class Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline let downstream: Downstream
            @usableFromInline let predicate: (Output, Output) -> Bool
            @usableFromInline var previous: Output?
            @usableFromInline var finished = false

            @inlinable
            init(downstream: Downstream, predicate: @escaping (Output, Output) -> Bool) {
                self.downstream = downstream
                self.predicate = predicate
            }

            @usableFromInline var description: String { "RemoveDuplicates" }

            @inlinable
            func receive(subscription: Subscription) {
                downstream.receive(subscription: subscription)
            }

            @inlinable
            func receive(_ input: Output) -> Subscribers.Demand {
                guard !finished else { return .none }
                if let previous, predicate(previous, input) { return .max(1) }
                previous = input
                return downstream.receive(input)
            }

            @inlinable
            func receive(completion: Subscribers.Completion<Failure>) {
                guard !finished else { return }
                finished = true
                previous = nil
                downstream.receive(completion: completion)
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
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}
