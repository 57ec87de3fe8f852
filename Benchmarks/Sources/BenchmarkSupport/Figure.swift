/// One headline of the suite: a Comet benchmark, its reference (a benchmark named
/// ``referenceName``, run by the same `swift package benchmark` invocation) and the target it is
/// held to. The benchmarks register themselves under these names; `BenchmarkReport` pairs them.
public struct Figure: Sendable {
    /// A target a figure is checked against.
    public enum Goal: Sendable {
        /// Comet's median time over the reference's: at most this.
        case ratio(atMost: Double)
        /// Comet's median time per operation: at most this many nanoseconds.
        case perOperation(atMostNanoseconds: Double)
        /// Comet's median time per operation minus the reference's: at most this many nanoseconds.
        case overhead(atMostNanoseconds: Double)
        /// Comet's peak resident memory minus the reference's (the same process image, harness
        /// and loaded workloads, doing the C loop's version of the job): at most this many bytes.
        case peakMemoryAboveReference(atMostBytes: Int)
        /// Comet's peak resident memory during its measured batch minus its resident memory just
        /// before it (the custom metric ``Figure/peakAboveStartMetric``, the largest over the
        /// iterations): "above the process baseline". At most this many bytes.
        case peakMemoryAboveStart(atMostBytes: Int)
        /// A custom metric Comet's benchmark records (a count): exactly this value.
        case count(String, equals: Int)
    }

    /// The group the report lists the figure under.
    public let group: String
    /// The Comet benchmark's name.
    public let name: String
    /// What the reference does.
    public let reference: String
    /// Operations per measured iteration (the same for Comet and the reference): the report
    /// divides times by it.
    public let operations: Int
    /// The targets (none: the figure is reported only).
    public let goals: [Goal]
    /// Where the report reads Comet's figure instead of this benchmark's wall clock: a custom
    /// metric (nanoseconds per iteration, e.g. CPU time) recorded by another figure's benchmark.
    public let cometMetric: (benchmark: String, metric: String)?
    /// The custom metric the reference records in place of its wall time, when it has one (CPU
    /// time, for a reference that runs on more than one thread).
    public let referenceMetric: String?

    public init(
        _ group: String, _ name: String, reference: String, operations: Int = 1, goals: [Goal] = [],
        cometMetric: (benchmark: String, metric: String)? = nil, referenceMetric: String? = nil
    ) {
        self.group = group
        self.name = name
        self.reference = reference
        self.operations = operations
        self.goals = goals
        self.cometMetric = cometMetric
        self.referenceMetric = referenceMetric
    }

    /// The custom metric a benchmark records for ``Goal/peakMemoryAboveStart(atMostBytes:)``.
    public static let peakAboveStartMetric = "peakAboveStart"

    /// The reference benchmark's name.
    public var referenceName: String { name + " (reference)" }
}
