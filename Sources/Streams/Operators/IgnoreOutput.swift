extension Publishers {
    /// A publisher that ignores all upstream elements, but passes along the upstream's
    /// completion.
    ///
    /// Like Combine, it asks the upstream for `.unlimited` as soon as it subscribes, whatever the
    /// downstream demands (the downstream never receives a value).
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// No value is ever published.
        public typealias Output = Never
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that ignores the upstream's elements.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes an ignoring subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribeStepping(subscriber, name: "IgnoreOutput", initialRequest: .unlimited, early: [.forwardCompletion], mapFailure: { $0 }) { _ in
                .skip
            }
        }
    }
}

extension Publisher {
    /// Ignores all upstream elements, but passes along the upstream publisher's completion state.
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}
