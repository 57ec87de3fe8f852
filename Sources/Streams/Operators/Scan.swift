extension Publishers {
    /// A publisher that transforms elements by applying a closure that receives its previous
    /// result and the next element, publishing every intermediate result.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The previous result the closure receives with the first element.
        public let initialResult: Output
        /// A closure that takes the previous result and the next element and returns the next
        /// result.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a scanning publisher.
        public init(
            upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes a scanning subscriber (with its own running result) to the upstream. As in
        /// Combine, it passes the upstream's subscription through: it never drops a value or
        /// ends the stream itself, so demand and cancellation need no intermediary.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let next = self.nextPartialResult
            let result = StepState(initialResult)
            upstream.subscribe(
                PassThrough(
                    downstream: subscriber,
                    name: "Scan",
                    reflect: { [downstreamChild(subscriber), ("result", result.value)] },
                    value: { input, downstream in
                        result.value = next(result.value, input)
                        return downstream.receive(result.value)
                    },
                    completion: { $0 }
                )
            )
        }
    }

    /// A publisher that transforms elements by applying an error-throwing closure that receives
    /// its previous result and the next element. If the closure throws, the upstream is
    /// cancelled and the error is sent downstream.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's failure or the closure's thrown error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The previous result the closure receives with the first element.
        public let initialResult: Output
        /// An error-throwing closure that takes the previous result and the next element and
        /// returns the next result.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a try-scanning publisher.
        public init(
            upstream: Upstream,
            initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes a scanning subscriber (with its own running result) to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let next = self.nextPartialResult
            let result = StepState(initialResult)
            upstream.subscribeStepping(
                subscriber, name: "TryScan", early: [.forwardValues],
                reflect: {
                    [downstreamChild($0), ("status", $0 == nil ? "terminal" : "subscribed"), ("result", result.value)]
                },
                mapFailure: { $0 }
            ) { input in
                tryStep {
                    result.value = try next(result.value, input)
                    return .emit(result.value)
                }
            }
        }
    }
}

extension Publisher {
    /// Transforms elements by providing the current element and the previous result to a
    /// closure, publishing each result.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Scan<Self, T>
    {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Transforms elements by providing the current element and the previous result to an
    /// error-throwing closure, publishing each result.
    public func tryScan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}
