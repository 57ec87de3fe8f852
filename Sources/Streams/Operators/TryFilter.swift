extension Publishers {
    /// A publisher that republishes all elements that match a provided error-throwing closure.
    ///
    /// A dropped element is replaced by a demand of one from the upstream. If the closure throws,
    /// the upstream is cancelled and the error is sent downstream; nothing else follows.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's failure or the closure's thrown error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// An error-throwing closure that indicates whether to republish an element.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Creates a try-filtering publisher.
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Subscribes a try-filtering subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let isIncluded = self.isIncluded
            // As Combine's, debug builds trap on events before the subscription.
            upstream.subscribeStepping(
                subscriber,
                name: "TryFilter",
                early: [.trap, .cancelLateSubscription],
                reflect: { [downstreamChild($0)] },
                mapFailure: { $0 }
            ) { input in
                tryStep { try isIncluded(input) ? .emit(input) : .skip }
            }
        }
    }

    /// A publisher that republishes all non-`nil` results of calling an error-throwing closure
    /// with each received element.
    ///
    /// A `nil` result is replaced by a demand of one from the upstream. If the closure throws,
    /// the upstream is cancelled and the error is sent downstream; nothing else follows.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's failure or the closure's thrown error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// An error-throwing closure that receives values from the upstream publisher and returns
        /// optional values.
        public let transform: (Upstream.Output) throws -> Output?

        /// Creates a try-compact-mapping publisher.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes a try-compact-mapping subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let transform = self.transform
            // As Combine's, debug builds trap on events before the subscription.
            upstream.subscribeStepping(
                subscriber,
                name: "TryCompactMap",
                early: [.trap, .cancelLateSubscription],
                reflect: { [downstreamChild($0)] },
                mapFailure: { $0 }
            ) { input in
                tryStep { try transform(input).map { .emit($0) } ?? .skip }
            }
        }
    }

    /// A publisher that publishes only elements that don't match the previous element, as judged
    /// by an error-throwing closure.
    ///
    /// A suppressed duplicate is replaced by a demand of one from the upstream. If the closure
    /// throws, the upstream is cancelled and the error is sent downstream.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's failure or the closure's thrown error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// An error-throwing closure that returns `true` if two elements are equivalent.
        public let predicate: (Output, Output) throws -> Bool

        /// Creates a duplicate-removing publisher with a throwing predicate.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes a duplicate-removing subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            let previous = StepState<Output?>(nil)
            upstream.subscribeStepping(
                subscriber, name: "TryRemoveDuplicates", early: [.trap, .cancelLateSubscription],
                reflect: { [downstreamChild($0), ("last", previous.value as Any)] },
                mapFailure: { $0 }
            ) { input in
                tryStep {
                    if let last = previous.value, try predicate(last, input) { return .skip }
                    previous.value = input
                    return .emit(input)
                }
            }
        }
    }
}

extension Publisher {
    /// Republishes all elements that match a provided error-throwing closure.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }

    /// Calls an error-throwing closure with each received element and publishes any returned
    /// optional that has a value.
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }

    /// Publishes only elements that don't match the previous element, as judged by an
    /// error-throwing closure.
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}
