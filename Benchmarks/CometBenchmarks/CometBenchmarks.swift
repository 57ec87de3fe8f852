import Benchmark
import BenchmarkSupport

/// The suite, registered for package-benchmark. Each Comet benchmark is paired with a reference
/// benchmark (named `… (reference)`, see ``Figure``); `make bench` runs them all and
/// `BenchmarkReport` prints each figure with its reference and the ratio.
let benchmarks: @Sendable () -> Void = {
    CodecBenchmarks.register()
    ThumbnailFilterBenchmarks.register()
    ModernCodecBenchmarks.register()
    ColorBenchmarks.register()
    LoopbackBenchmarks.register()
    CacheBenchmarks.register()
    ServerBenchmarks.register()
    PipelineBenchmarks.register()
    ConcurrencyBenchmarks.register()
    StreamsBenchmarks.register()
    StreamsVsOpenCombineBenchmarks.register()
    OpenCombineBenchmarks.register()
}

extension Benchmark.Configuration {
    /// The suite's settings: wall clock in nanoseconds plus allocations; each benchmark runs for
    /// at most `seconds` or `iterations` measured iterations after `warmup` unmeasured ones.
    static func suite(
        seconds: Int = 2, iterations: Int = 10_000, warmup: Int = 3,
        extra: [BenchmarkMetric] = []
    ) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident] + extra,
            timeUnits: .nanoseconds, warmupIterations: warmup,
            maxDuration: .seconds(seconds), maxIterations: iterations)
    }
}
