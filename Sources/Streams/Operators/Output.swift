extension Publishers {
    /// A publisher that publishes elements specified by a range in the sequence of published
    /// elements (``Publisher/output(at:)``, ``Publisher/output(in:)``, ``Publisher/prefix(_:)``).
    ///
    /// Elements before the range are replaced by a demand of one from the upstream; once the
    /// last element of the range is published, the upstream is cancelled and the stream
    /// finishes. An empty range finishes at the first element. As in Combine, elements that
    /// arrive before the upstream's subscription (which breaks the contract) are counted and
    /// published, but end nothing: the stream ends at the first element after the
    /// subscription that lies beyond the range.
    public struct Output<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The range of elements to publish (indices from zero, counting every upstream element).
        public let range: CountableRange<Int>

        /// Creates a publisher of the upstream elements whose indices lie in `range`
        /// (`range.lowerBound` ≥ 0).
        public init(upstream: Upstream, range: CountableRange<Int>) {
            precondition(range.lowerBound >= 0, "output(in:): the range must not start below zero")
            self.upstream = upstream
            self.range = range
        }

        /// Subscribes a range-selecting subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let range = self.range
            let index = StepState(0)
            // As Combine's, values before the subscription are counted and passed on, but do
            // not end the stream.
            upstream.subscribeStepping(
                subscriber, name: "Output", early: [.forwardValues, .endOnlyAttached], mapFailure: { $0 }
            ) {
                input in
                let current = index.value
                index.value += 1
                if current < range.lowerBound { return .skip }
                if current >= range.upperBound { return .finish }
                return current == range.upperBound - 1 ? .emitAndFinish(input) : .emit(input)
            }
        }
    }
}

extension Publisher {
    /// Publishes a specific element (by index from zero), then finishes.
    public func output(at index: Int) -> Publishers.Output<Self> {
        Publishers.Output(upstream: self, range: index..<(index + 1))
    }

    /// Publishes the elements whose indices lie in `range`, then finishes.
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }

    /// Republishes elements up to the specified maximum count, then finishes.
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        precondition(maxLength >= 0, "prefix: maxLength must not be negative")
        return output(in: 0..<maxLength)
    }
}
