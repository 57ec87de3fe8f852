import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ImagePipeline {
    /// When and how often a failed download is tried again.
    ///
    /// Only transient failures are retried (see ``isTransient(_:)``): HTTP 5xx and 429, timeouts,
    /// and connections lost or reset (a body cut short included). A 4xx other than 429, a
    /// cancellation, a too-large response or anything the decoder refused is never retried.
    ///
    /// The wait before attempt *n + 1* is ``initialDelay`` × ``multiplier``^(n − 1), at most
    /// ``maximumDelay``, spread by ±``jitter`` so that many clients do not come back at once. A
    /// `Retry-After` from the server (HTTP 429 or 503) replaces the computed wait, unjittered; a
    /// `Retry-After` longer than ``maximumRetryAfter`` ends the retries (the load fails with the
    /// server's status).
    ///
    /// The wait holds no download slot (other downloads run meanwhile), and ends at once when
    /// the load is cancelled. Tasks that share a download share its one retry sequence: the
    /// policy of the request that started the download applies to all of them.
    ///
    /// Thread-safe (a value of `Sendable` parts). ``sleep`` and ``random`` are injectable so that
    /// tests can observe the waits without waiting.
    public struct RetryPolicy: Sendable {
        /// How many times a download is tried in all, the first included; 1 means no retry.
        public var maximumAttempts: Int
        /// The wait before the first retry. Default 0.5 s.
        public var initialDelay: Duration
        /// The factor applied to the wait after each retry. Default 2.
        public var multiplier: Double
        /// The longest computed wait. Default 30 s.
        public var maximumDelay: Duration
        /// The spread of each computed wait, as a fraction (0.2: ±20 %). Default 0.2.
        public var jitter: Double
        /// The longest `Retry-After` the policy waits for. Default 60 s.
        public var maximumRetryAfter: Duration
        /// Waits for a duration; throws when the waiting task is cancelled. Default `Task.sleep`.
        public var sleep: @Sendable (Duration) async throws -> Void
        /// A number in 0..<1 for the jitter. Default `Double.random(in: 0..<1)`.
        public var random: @Sendable () -> Double

        /// Creates a policy; the defaults give 3 attempts, waiting about 0.5 s then 1 s.
        public init(
            maximumAttempts: Int = 3, initialDelay: Duration = .milliseconds(500), multiplier: Double = 2,
            maximumDelay: Duration = .seconds(30), jitter: Double = 0.2, maximumRetryAfter: Duration = .seconds(60),
            sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
            random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
        ) {
            self.maximumAttempts = max(1, maximumAttempts)
            self.initialDelay = initialDelay
            self.multiplier = multiplier
            self.maximumDelay = maximumDelay
            self.jitter = min(max(jitter, 0), 1)
            self.maximumRetryAfter = maximumRetryAfter
            self.sleep = sleep
            self.random = random
        }

        /// No retries: every failure fails the load at once (the pipeline's default).
        public static var disabled: RetryPolicy { RetryPolicy(maximumAttempts: 1) }

        /// The wait before the next attempt after `attempt` (1 for the first) failed with
        /// `error`, or `nil` when the load must fail now (attempts used up, a failure that is
        /// not transient, or a `Retry-After` beyond ``maximumRetryAfter``).
        public func delay(afterAttempt attempt: Int, failedWith error: any Swift.Error) -> Duration? {
            guard attempt < maximumAttempts, Self.isTransient(error) else { return nil }
            if case DataLoaderError.retryAfter(_, let seconds)? = error as? DataLoaderError {
                let wait = Duration.milliseconds(Int64((max(0, seconds) * 1000).rounded(.up)))
                return wait <= maximumRetryAfter ? wait : nil
            }
            let growth = pow(multiplier, Double(max(0, attempt - 1)))
            let base = min(initialDelay * growth, maximumDelay)
            let spread = 1 - jitter + 2 * jitter * min(max(random(), 0), 1)
            return base * spread
        }

        /// Whether `error` is worth another attempt: HTTP 5xx and 429 (with or without
        /// `Retry-After`), a body cut short, and the `URLError`s of timeouts and lost, reset or
        /// refused connections. Never a cancellation or another 4xx.
        public static func isTransient(_ error: any Swift.Error) -> Bool {
            switch error {
            case let error as DataLoaderError:
                switch error {
                case .statusCode(let status), .retryAfter(let status, _):
                    return status == 429 || (500...599).contains(status)
                case .incompleteBody: return true
                default: return false
                }
            case let error as URLError:
                return transientURLErrorCodes.contains(error.code.rawValue)
            default:
                let error = error as NSError
                return error.domain == NSURLErrorDomain && transientURLErrorCodes.contains(error.code)
            }
        }

        private static let transientURLErrorCodes: Set<Int> = [
            NSURLErrorTimedOut, NSURLErrorNetworkConnectionLost, NSURLErrorCannotConnectToHost,
            NSURLErrorBadServerResponse, NSURLErrorNotConnectedToInternet,
        ]

        /// The seconds a `Retry-After` value asks for: delta-seconds, or an HTTP date measured
        /// from `now`; `nil` when it is neither.
        public static func parseRetryAfter(_ value: String, now: Date = Date()) -> TimeInterval? {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if let seconds = Int(trimmed) { return seconds >= 0 ? TimeInterval(seconds) : nil }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
            guard let date = formatter.date(from: trimmed) else { return nil }
            return max(0, date.timeIntervalSince(now))
        }
    }
}
