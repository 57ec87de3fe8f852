import Logging

/// A Redis client over hiredis's synchronous API: a bounded pool of connections on dedicated
/// threads (never Swift's cooperative threads), connect and command timeouts, reconnect after a
/// failure, and a circuit breaker so a dead Redis costs nothing per call for a while (calls fail
/// at once with ``RedisError/unavailable``).
///
/// Thread-safe; share one per process (it is the pool). ``close()`` (or the last reference going
/// away) stops the worker threads after the queued commands ran.
public final class RedisClient: Sendable {
    /// The configuration this client was made with.
    public let configuration: RedisConfiguration
    private let pool: RedisWorkerPool
    private let breaker: CircuitBreaker
    private let logger: Logger

    /// Starts the pool's threads; no connection opens until the first command.
    /// - Parameters:
    ///   - configuration: where to connect, timeouts, pool size and backoff.
    ///   - logger: logs when Redis goes down (once per outage) and comes back.
    public init(configuration: RedisConfiguration, logger: Logger = Logger(label: "comet.redis")) {
        self.configuration = configuration
        self.logger = logger
        pool = RedisWorkerPool(configuration: configuration, name: "comet-redis")
        breaker = CircuitBreaker(
            initialBackoff: configuration.initialBackoff, maximumBackoff: configuration.maximumBackoff)
    }

    deinit {
        pool.shutdown()
    }

    /// Stops the worker threads once queued commands ran; later calls fail with
    /// ``RedisError/closed``. Does not wait.
    public func close() {
        pool.shutdown()
    }

    /// Sends one command with binary-safe arguments and returns its reply. An error reply is
    /// returned as ``RedisReply/error(_:)``, not thrown.
    /// - Throws: ``RedisError`` for connection failures, timeouts, an open circuit or a full queue.
    public func command(_ arguments: [[UInt8]]) async throws(RedisError) -> RedisReply {
        let admission = breaker.admit()
        guard admission != .rejected else { throw .unavailable }
        let probe = admission == .probe
        let enqueued = ContinuousClock.now
        let queueLimit = configuration.commandTimeout
        let result: Result<RedisReply, RedisError> = await withCheckedContinuation { continuation in
            let submitted = pool.submit { connection in
                // A command that waited past its timeout for a connection is not worth sending.
                if ContinuousClock.now - enqueued > queueLimit {
                    continuation.resume(returning: .failure(.overloaded))
                    return
                }
                do throws(RedisError) {
                    continuation.resume(returning: .success(try connection.execute(arguments)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            if !submitted {
                continuation.resume(returning: .failure(.overloaded))
            }
        }
        switch result {
        case .success(let reply):
            log(breaker.record(failed: false, probe: probe), error: nil)
            return reply
        case .failure(let error):
            if error.isAvailabilityFailure {
                log(breaker.record(failed: true, probe: probe), error: error)
            } else if probe {
                breaker.abandonProbe()
            }
            throw error
        }
    }

    /// Sends one command given as strings (UTF-8).
    public func command(_ arguments: String...) async throws(RedisError) -> RedisReply {
        try await command(arguments.map { Array($0.utf8) })
    }

    /// `GET key`: the value, or nil when the key does not exist.
    public func get(_ key: String) async throws(RedisError) -> [UInt8]? {
        switch try await command([Array("GET".utf8), Array(key.utf8)]) {
        case .bulk(let bytes): return bytes
        case .null: return nil
        case let other: throw Self.unexpected(other)
        }
    }

    /// `SET key value [PX ms] [NX]`: stores `value`, expiring after `expiry` if given; with
    /// `onlyIfAbsent`, only when the key does not exist yet.
    /// - Returns: whether the value was stored (false only when `onlyIfAbsent` and the key existed).
    @discardableResult
    public func set(_ key: String, _ value: [UInt8], expiry: Duration? = nil, onlyIfAbsent: Bool = false)
        async throws(RedisError) -> Bool
    {
        var arguments: [[UInt8]] = [Array("SET".utf8), Array(key.utf8), value]
        if let expiry {
            arguments.append(Array("PX".utf8))
            arguments.append(Array(String(max(1, Self.milliseconds(expiry))).utf8))
        }
        if onlyIfAbsent { arguments.append(Array("NX".utf8)) }
        switch try await command(arguments) {
        case .status: return true
        case .null: return false
        case let other: throw Self.unexpected(other)
        }
    }

    /// `MGET key...`: each key's value or nil, in order.
    public func get(_ keys: [String]) async throws(RedisError) -> [[UInt8]?] {
        switch try await command([Array("MGET".utf8)] + keys.map { Array($0.utf8) }) {
        case .array(let elements) where elements.count == keys.count:
            return try elements.map { (element: RedisReply) throws(RedisError) -> [UInt8]? in
                switch element {
                case .bulk(let bytes): return bytes
                case .null: return nil
                case let other: throw Self.unexpected(other)
                }
            }
        case let other: throw Self.unexpected(other)
        }
    }

    /// `DEL key`: whether the key existed.
    @discardableResult
    public func delete(_ key: String) async throws(RedisError) -> Bool {
        switch try await command("DEL", key) {
        case .integer(let removed): return removed > 0
        case let other: throw Self.unexpected(other)
        }
    }

    /// `PTTL key`: the time left before the key expires; nil when it does not exist or has no expiry.
    public func timeToLive(_ key: String) async throws(RedisError) -> Duration? {
        switch try await command("PTTL", key) {
        case .integer(let milliseconds) where milliseconds >= 0: return .milliseconds(milliseconds)
        case .integer: return nil
        case let other: throw Self.unexpected(other)
        }
    }

    /// `EVAL script numkeys keys... args...`: runs a Lua script; its reply as is.
    public func eval(_ script: String, keys: [String], arguments: [[UInt8]] = []) async throws(RedisError) -> RedisReply
    {
        try await command(
            [Array("EVAL".utf8), Array(script.utf8), Array(String(keys.count).utf8)] + keys.map { Array($0.utf8) }
                + arguments)
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    private static func unexpected(_ reply: RedisReply) -> RedisError {
        if case .error(let message) = reply { return .server(message) }
        return .unexpectedReply(String(describing: reply))
    }

    private func log(_ transition: CircuitBreaker.Transition, error: RedisError?) {
        switch transition {
        case .none:
            break
        case .opened(let backoff):
            logger.warning(
                "Redis unavailable; calls skip it for a while",
                metadata: [
                    "redis": "\(configuration.host):\(configuration.port)",
                    "error": "\(error.map { String(describing: $0) } ?? "")",
                    "backoff": "\(backoff)",
                ])
        case .closed:
            logger.notice("Redis reachable again", metadata: ["redis": "\(configuration.host):\(configuration.port)"])
        }
    }
}
