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

        /// Stands between the upstream and the downstream: both ends live in a ``Link``, so
        /// after a throw, an upstream completion or a cancel nothing more reaches the downstream
        /// and neither end is kept.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Error {
            // @unchecked Sendable: its state is in `link`, behind the link's lock; its other fields are immutable.
            private let link: Link<Downstream>
            private let transform: (Upstream.Output) throws -> Output

            init(downstream: Downstream, transform: @escaping (Upstream.Output) throws -> Output) {
                // As Combine's, values before the subscription go through.
                self.link = Link(downstream: downstream, early: [.forwardValues])
                self.transform = transform
            }

            var description: String { "TryMap" }

            func receive(subscription: Subscription) {
                guard let downstream = link.adopt(subscription) else { return }
                downstream.receive(subscription: self)
            }

            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard let downstream = link.downstream else { return .none }
                let output: Output
                do {
                    output = try transform(input)
                } catch {
                    guard let upstream = link.cancel() else { return .none }  // cancelled meanwhile
                    upstream.cancel()
                    downstream.receive(completion: .failure(error))
                    return .none
                }
                return downstream.receive(output)
            }

            func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                link.complete()?.receive(completion: completion.mapFailure { $0 as Error })
            }

            func request(_ demand: Subscribers.Demand) {
                link.upstream?.request(demand)
            }

            func cancel() {
                link.cancel()?.cancel()
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
