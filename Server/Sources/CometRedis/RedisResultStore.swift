import Logging
import Metrics
import Locking

/// Processed results shared through Redis by every instance behind a load balancer, made at most
/// once across them while a lease holds (a cross-instance single-flight).
///
/// `result(for:ttl:produce:)`: a stored result is returned as is; on a miss, the instance that
/// wins `SET <prefix>l:<key> <token> NX PX <lease>` produces, stores the result with its TTL and
/// releases its lease (only if still its own); the others poll until the result appears, or
/// take the lease themselves when it expires or is released without a result (the producer
/// failed or died). Whenever Redis fails, is too slow or is known to be down, the caller's own
/// `produce()` answers: Redis never fails a request.
///
/// Metrics (through `metricsFactory`): `comet_redis_hits_total` (served from Redis),
/// `comet_redis_misses_total` (not in Redis: produced here or by a peer),
/// `comet_redis_lease_waits_total` (waited for a peer's lease),
/// `comet_redis_fallbacks_total` (produced here because Redis failed),
/// `comet_redis_errors_total` (every failed Redis call, including stores after the answer).
///
/// Thread-safe; shares its ``RedisClient``, which the caller owns and closes.
public final class RedisResultStore: Sendable {
    /// The client, shared and owned by the caller.
    public let client: RedisClient
    /// Key names, lease and polling settings.
    public let configuration: RedisResultStoreConfiguration
    private let logger: Logger
    private let hits: Counter
    private let misses: Counter
    private let leaseWaits: Counter
    private let fallbacks: Counter
    private let errors: Counter
    private let lastWarning = Locked<ContinuousClock.Instant?>(nil)

    // Stores the result and releases the lease in one round trip, the lease only if the token
    // still matches (it may have expired and been taken by another instance).
    private static let storeScript = """
        if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
        if redis.call('GET', KEYS[2]) == ARGV[3] then return redis.call('DEL', KEYS[2]) end
        return 0
        """

    /// A store over `client`.
    /// - Parameters:
    ///   - client: the Redis client (its pool is this instance's); not closed by the store.
    ///   - configuration: key prefix, lease duration, poll intervals, size cap.
    ///   - logger: warnings about Redis failures, at most one per 10 s (the client logs outages).
    ///   - metricsFactory: where the counters go; default the process's bootstrapped system.
    public init(
        client: RedisClient,
        configuration: RedisResultStoreConfiguration = .init(),
        logger: Logger = Logger(label: "comet.redis.store"),
        metricsFactory: MetricsFactory = MetricsSystem.factory
    ) {
        self.client = client
        self.configuration = configuration
        self.logger = logger
        hits = Counter(label: "comet_redis_hits_total", factory: metricsFactory)
        misses = Counter(label: "comet_redis_misses_total", factory: metricsFactory)
        leaseWaits = Counter(label: "comet_redis_lease_waits_total", factory: metricsFactory)
        fallbacks = Counter(label: "comet_redis_fallbacks_total", factory: metricsFactory)
        errors = Counter(label: "comet_redis_errors_total", factory: metricsFactory)
    }

    /// Returns the result `produce` makes for `key`, made at most once across the instances
    /// sharing the store while the lease holds, and stored for `ttl`.
    ///
    /// Never fails because of Redis: on any Redis failure, `produce()` answers. Throws only what
    /// `produce` throws, or `CancellationError` if the task is cancelled while waiting for a peer.
    public func result(
        for key: String,
        ttl: Duration,
        produce: @escaping @Sendable () async throws -> StoredResult
    ) async throws -> StoredResult {
        let resultKey = configuration.keyPrefix + "r:" + key
        let leaseKey = configuration.keyPrefix + "l:" + key
        let token = Self.token()
        var flight = LeaseFlight(
            leaseDuration: configuration.leaseDuration, initialPollInterval: configuration.initialPollInterval,
            maximumPollInterval: configuration.maximumPollInterval)
        var action = flight.start()
        while true {
            switch action {
            case .produceAndStore:
                return try await produceAndStore(
                    resultKey: resultKey, leaseKey: leaseKey, token: token, ttl: ttl, produce)
            case .answer(let stored):
                return stored
            case .produceAlone(let reason):
                switch reason {
                case .waitedTooLong:
                    logger.debug("gave up waiting for a peer's result", metadata: ["key": "\(key)"])
                case .unexpectedEvent:
                    logger.error("lease flight refused an event; producing alone", metadata: ["key": "\(key)"])
                case .redisFailed:
                    break
                }
                return try await produce()
            case .lookUp, .takeLease, .poll:
                do {
                    action = try await perform(
                        action, on: &flight, resultKey: resultKey, leaseKey: leaseKey, token: token)
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    errors.increment()
                    fallbacks.increment()
                    warn(error)
                    action = flight.redisFailed()
                }
            }
        }
    }

    /// Performs one of the flight's Redis steps and reports its outcome to `flight`, whose next
    /// action it returns. Throws what Redis throws, or `CancellationError` from a poll's sleep.
    private func perform(
        _ action: LeaseFlight.Action, on flight: inout LeaseFlight, resultKey: String, leaseKey: String,
        token: String
    ) async throws -> LeaseFlight.Action {
        switch action {
        case .lookUp:
            let stored = try await client.get(resultKey).flatMap(StoredResult.init(encoded:))
            if stored == nil { misses.increment() } else { hits.increment() }
            return flight.lookedUp(stored, now: .now)
        case .takeLease:
            let won = try await client.set(
                leaseKey, Array(token.utf8), expiry: configuration.leaseDuration, onlyIfAbsent: true)
            let hadWaited = flight.hasWaited
            let next = flight.contended(won: won, now: .now)
            if flight.hasWaited && !hadWaited { leaseWaits.increment() }
            return next
        case .poll(let interval):
            try await Task.sleep(for: interval)
            let values = try await client.get([resultKey, leaseKey])
            return flight.polled(
                result: values[0].flatMap(StoredResult.init(encoded:)), leaseHeld: values[1] != nil, now: .now)
        case .produceAndStore, .answer, .produceAlone:
            return action
        }
    }

    private func produceAndStore(
        resultKey: String,
        leaseKey: String,
        token: String,
        ttl: Duration,
        _ produce: @escaping @Sendable () async throws -> StoredResult
    ) async throws -> StoredResult {
        let produced: StoredResult
        do {
            produced = try await produce()
        } catch {
            // Let a waiting peer take over at once rather than after the lease expires.
            await runScript(resultKey: resultKey, leaseKey: leaseKey, value: [], ttl: nil, token: token)
            throw error
        }
        let storable = produced.bytes.count <= configuration.maximumStoredBytes
        await runScript(
            resultKey: resultKey, leaseKey: leaseKey,
            value: storable ? produced.encoded() : [], ttl: storable ? ttl : nil, token: token
        )
        return produced
    }

    private func runScript(resultKey: String, leaseKey: String, value: [UInt8], ttl: Duration?, token: String) async {
        let milliseconds = ttl.map { String(max(1, RedisClient.milliseconds($0))) } ?? ""
        do {
            let reply = try await client.eval(
                Self.storeScript, keys: [resultKey, leaseKey],
                arguments: [value, Array(milliseconds.utf8), Array(token.utf8)]
            )
            if case .error(let message) = reply { throw RedisError.server(message) }
        } catch {
            errors.increment()
            warn(error)
        }
    }

    // Outages are logged by the client once each; this catches the rest (a full queue, a
    // server error reply) without logging every request.
    private func warn(_ error: any Error) {
        if let error = error as? RedisError, error == .unavailable { return }
        let now = ContinuousClock.now
        let due = lastWarning.withLock { last in
            guard last.map({ now - $0 >= .seconds(10) }) ?? true else { return false }
            last = now
            return true
        }
        if due {
            logger.warning("Redis call failed; serving without the shared store", metadata: ["error": "\(error)"])
        }
    }

    private static func token() -> String {
        String(UInt64.random(in: .min ... .max), radix: 36) + String(UInt64.random(in: .min ... .max), radix: 36)
    }
}
