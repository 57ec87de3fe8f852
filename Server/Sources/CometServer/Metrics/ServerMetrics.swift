import Locking
import Prometheus

/// The service's Prometheus metrics, in its own registry (so several servers in one process,
/// as in the tests, each count their own), exported at `/metrics`.
///
/// Names: `comet_requests_total{status}`, `comet_request_duration_seconds` (histogram),
/// `comet_work_active`, `comet_work_queued`, `comet_shed_total`, `comet_results_made_total`,
/// `comet_not_modified_total`. Thread-safe (the registry and its metrics are).
public struct ServerMetrics: Sendable {
    /// The registry the metrics live in; others may register theirs here too.
    public let registry: PrometheusCollectorRegistry
    private let duration: DurationHistogram
    private let active: Gauge
    private let queued: Gauge
    private let shed: Prometheus.Counter
    private let made: Prometheus.Counter
    private let notModified: Prometheus.Counter
    /// `comet_requests_total` by status, made once per status: asking the registry takes its
    /// lock and matches the name and labels on every request.
    private let requestCounters = Locked<[Int: Prometheus.Counter]>([:])

    /// Creates the metrics in `registry`.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        duration = registry.makeDurationHistogram(
            descriptor: .init(
                namespace: "comet", metricName: "request_duration", unitName: "seconds",
                helpText: "Time from request to response head"),
            labels: [],
            buckets: [
                .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
                .seconds(10),
            ]
        )
        active = registry.makeGauge(
            descriptor: .init(
                namespace: "comet", metricName: "work", unitName: "active",
                helpText: "Image work running now"))
        queued = registry.makeGauge(
            descriptor: .init(
                namespace: "comet", metricName: "work", unitName: "queued",
                helpText: "Image work waiting for a slot"))
        shed = registry.makeCounter(
            descriptor: .init(
                namespace: "comet", metricName: "shed", unitName: "total",
                helpText: "Requests refused with 503 (work and queue full)"))
        made = registry.makeCounter(
            descriptor: .init(
                namespace: "comet", metricName: "results_made", unitName: "total",
                helpText: "Results and info answers made (not served from a store)"))
        notModified = registry.makeCounter(
            descriptor: .init(
                namespace: "comet", metricName: "not_modified", unitName: "total",
                helpText: "304 answers to If-None-Match"))
    }

    /// Counts one answered request.
    public func recordRequest(status: Int, duration elapsed: Duration) {
        let counter =
            requestCounters.withLock { $0[status] }
            ?? {
                let counter = registry.makeCounter(
                    descriptor: .init(
                        namespace: "comet", metricName: "requests", unitName: "total",
                        helpText: "Requests answered, by status"),
                    labels: [("status", String(status))])
                requestCounters.withLock { $0[status] = counter }
                return counter
            }()
        counter.increment()
        duration.record(elapsed)
        if status == 304 { notModified.increment() }
        if status == 503 { shed.increment() }
    }

    /// Sets the work gauges.
    public func recordLoad(active: Int, queued: Int) {
        self.active.set(Double(active))
        self.queued.set(Double(queued))
    }

    /// Counts one result made.
    public func recordResultMade() { made.increment() }

    /// Records the number of open connections and, when the server closed one, why
    /// (`header_timeout`, `evicted` at the connection limit, `refused` at the limit).
    public func recordConnections(open: Int, closedBecause reason: String?) {
        registry.makeGauge(
            descriptor: .init(
                namespace: "comet", metricName: "connections", unitName: "open",
                helpText: "Client connections open now")
        ).set(Double(open))
        guard let reason else { return }
        registry.makeCounter(
            descriptor: .init(
                namespace: "comet", metricName: "connections_closed", unitName: "total",
                helpText: "Client connections the server closed, by reason"),
            labels: [("reason", reason)]
        ).increment()
    }

    /// The Prometheus text exposition of every metric in the registry.
    public func exposition() -> String { registry.emitToString() }
}
