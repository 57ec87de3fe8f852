import Locking

extension Publishers {
    /// A publisher that prints log messages for all publishing events (subscription, values,
    /// completion, cancel, requests), to standard output or to a given stream.
    ///
    /// Each line reads `prefix: event`, or just `event` when the prefix is empty, in Combine's
    /// words: `receive subscription: (…)`, `receive value: (…)`, `receive finished`,
    /// `receive error: (…)`, `receive cancel`, `request max: (n)` or `request unlimited`, and
    /// `… (synchronous)` for the demand the downstream returns from `receive(_:)`. A line goes
    /// to a stream as `print(_:to:)` writes it (an empty string, the text, then the newline),
    /// under a lock, one line at a time.
    public struct Print<Upstream: Publisher>: Publisher {
        /// The upstream's output type.
        public typealias Output = Upstream.Output
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// A string with which to prefix all log messages.
        public let prefix: String
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// Where the lines go (`nil`: standard output).
        private let write: @Sendable (String) -> Void

        /// Creates a publisher that prints log messages for all publishing events, to `stream`
        /// (default: standard output).
        public init(upstream: Upstream, prefix: String, to stream: TextOutputStream? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            if let stream {
                let box = Locked(UncheckedStream(stream: stream))
                write = { line in
                    box.withLock {
                        $0.stream.write("")
                        $0.stream.write(line)
                        $0.stream.write("\n")
                    }
                }
            } else {
                write = { Swift.print($0) }
            }
        }

        /// Subscribes to the upstream through a logging layer.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let write = self.write
            let lead = prefix.isEmpty ? "" : prefix + ": "
            upstream.handleEvents(
                receiveSubscription: { write("\(lead)receive subscription: (\($0))") },
                receiveOutput: { write("\(lead)receive value: (\($0))") },
                receiveCompletion: { completion in
                    switch completion {
                    case .finished: write("\(lead)receive finished")
                    case .failure(let error): write("\(lead)receive error: (\(error))")
                    }
                },
                receiveCancel: { write("\(lead)receive cancel") },
                receiveRequest: { write("\(lead)request \(Self.describe($0))") }
            ).receive(subscriber: subscriber, name: "Print") {
                write("\(lead)request \(Self.describe($0)) (synchronous)")
            }
        }

        /// A demand in Combine's words: `max: (n)` or `unlimited`.
        private static func describe(_ demand: Subscribers.Demand) -> String {
            demand.max.map { "max: (\($0))" } ?? "unlimited"
        }
    }
}

/// A caller's output stream, only used under its lock.
private struct UncheckedStream: @unchecked Sendable {
    var stream: TextOutputStream
}

extension Publisher {
    /// Prints log messages for all publishing events.
    ///
    /// - Parameters:
    ///   - prefix: a string with which to prefix all log messages (default none).
    ///   - stream: where to write them (default standard output).
    public func print(_ prefix: String = "", to stream: TextOutputStream? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}
