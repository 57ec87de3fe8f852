extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided
    /// error-throwing closure.
    ///
    /// If the closure throws, the upstream is cancelled and the error is sent downstream as a
    /// failure; nothing else follows.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's failure or the closure's thrown error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) throws -> Output

        /// Creates a try-mapping publisher.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes a try-mapping subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }

        /// Passes the upstream subscription through; its two fields are only touched from the
        /// upstream's serialised calls.
        private final class Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible
        where Downstream.Input == Output, Downstream.Failure == Error {
            private let downstream: Downstream
            private let transform: (Upstream.Output) throws -> Output
            private var subscription: Subscription?
            private var failed = false

            init(downstream: Downstream, transform: @escaping (Upstream.Output) throws -> Output) {
                self.downstream = downstream
                self.transform = transform
            }

            var description: String { "TryMap" }

            func receive(subscription: Subscription) {
                self.subscription = subscription
                downstream.receive(subscription: subscription)
            }

            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !failed else { return .none }
                do {
                    return downstream.receive(try transform(input))
                } catch {
                    failed = true
                    subscription?.cancel()
                    subscription = nil
                    downstream.receive(completion: .failure(error))
                    return .none
                }
            }

            func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard !failed else { return }
                subscription = nil
                downstream.receive(completion: completion.mapFailure { $0 as Error })
            }
        }
    }
}

extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided error-throwing closure.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}
