extension Publishers {
    /// A publisher that raises a fatal error upon receiving any failure, and otherwise
    /// republishes all received input (a debugging aid; the trap happens in release builds too,
    /// as in Combine).
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// Failures trap, so none is published.
        public typealias Failure = Never

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The string used at the beginning of the fatal error message.
        public let prefix: String
        /// The filename used in the error message.
        public let file: StaticString
        /// The line number used in the error message.
        public let line: UInt

        /// Creates a failure-asserting publisher.
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        /// Subscribes a subscriber that traps on failure to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (prefix, file, line) = (self.prefix, self.file, self.line)
            upstream.subscribe(
                PassThrough(
                    downstream: subscriber,
                    name: "AssertNoFailure",
                    reflect: { [("file", file), ("line", line), ("prefix", prefix)] },
                    value: { $1.receive($0) }
                ) { completion in
                    if case .failure(let error) = completion {
                        fatalError("\(prefix.isEmpty ? "" : prefix + ": ")\(error)", file: file, line: line)
                    }
                    return .finished
                }
            )
        }
    }
}

extension Publisher {
    /// Raises a fatal error when its upstream publisher fails, and otherwise republishes all
    /// received input.
    public func assertNoFailure(_ prefix: String = "", file: StaticString = #file, line: UInt = #line)
        -> Publishers.AssertNoFailure<Self>
    {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}
