/// A publisher that exposes its elements as an asynchronous sequence (for publishers that
/// cannot fail).
///
/// Each iterator subscribes to the publisher when it is created and requests one value per
/// call to `next()`, so a slow consumer applies back-pressure. Cancelling the iterating task
/// cancels the subscription and ends the sequence.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    /// The publisher's output type.
    public typealias Element = P.Output

    private let publisher: P

    /// Creates an asynchronous sequence of the publisher's elements.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns an iterator over its elements.
    public func makeAsyncIterator() -> Iterator {
        let bridge = AsyncBridge<P.Output, Never>()
        publisher.subscribe(bridge)
        return Iterator(bridge: bridge)
    }

    /// The iterator that produces elements of the asynchronous publisher sequence.
    public struct Iterator: AsyncIteratorProtocol {
        private let bridge: AsyncBridge<P.Output, Never>

        init(bridge: AsyncBridge<P.Output, Never>) {
            self.bridge = bridge
        }

        /// Produces the next element, or `nil` once the publisher finished or the task was
        /// cancelled.
        public mutating func next() async -> P.Output? {
            await next(isolation: nil)
        }

        /// Produces the next element on the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> P.Output? {
            switch await bridge.next(isolation: actor) {
            case .success(let value): return value
            }
        }
    }
}

/// A publisher that exposes its elements as a throwing asynchronous sequence.
///
/// Same as ``AsyncPublisher``, but a publisher failure is thrown from `next()`.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    /// The publisher's output type.
    public typealias Element = P.Output

    private let publisher: P

    /// Creates a throwing asynchronous sequence of the publisher's elements.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns an iterator over its elements.
    public func makeAsyncIterator() -> Iterator {
        let bridge = AsyncBridge<P.Output, P.Failure>()
        publisher.subscribe(bridge)
        return Iterator(bridge: bridge)
    }

    /// The iterator that produces elements of the asynchronous publisher sequence.
    public struct Iterator: AsyncIteratorProtocol {
        private let bridge: AsyncBridge<P.Output, P.Failure>

        init(bridge: AsyncBridge<P.Output, P.Failure>) {
            self.bridge = bridge
        }

        /// Produces the next element, `nil` once the publisher finished or the task was
        /// cancelled; throws the publisher's failure.
        public mutating func next() async throws -> P.Output? {
            try await next(isolation: nil)
        }

        /// Produces the next element on the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> P.Output? {
            try await bridge.next(isolation: actor).get()
        }
    }
}

extension Publisher where Failure == Never {
    /// The elements produced by the publisher, as an asynchronous sequence.
    public var values: AsyncPublisher<Self> {
        AsyncPublisher(self)
    }
}

extension Publisher {
    /// The elements produced by the publisher, as a throwing asynchronous sequence.
    public var values: AsyncThrowingPublisher<Self> {
        AsyncThrowingPublisher(self)
    }
}
