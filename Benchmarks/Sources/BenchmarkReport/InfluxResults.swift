import Foundation

/// The medians (p50) per benchmark and metric from package-benchmark's influx CSV export, in
/// base units (nanoseconds, bytes, counts).
struct InfluxResults {
    /// Benchmark name → metric name (spaces removed, as exported) → p50.
    private(set) var medians: [String: [String: Double]] = [:]
    /// Benchmark name → metric name → p100 (the largest value over the iterations).
    private(set) var maxima: [String: [String: Double]] = [:]

    init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            // measurement,hostName,processorType,processors,memory,kernelVersion,metric,unit,test,
            // percentile,value,test_average,iterations,warmup_iterations,time (names carry no commas)
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 15, fields[0] != "measurement" else { continue }
            let count = fields.count
            let metric = fields[count - 9], unit = fields[count - 8], test = fields[count - 7]
            guard let percentile = Double(fields[count - 6]), percentile == 50 || percentile == 100,
                let value = Double(fields[count - 5])
            else { continue }
            // Counts (memory, allocations, custom metrics) are exported raw whatever their unit
            // label says; only times carry a unit.
            if percentile == 50 {
                medians[test, default: [:]][metric] = value * Self.timeScale(of: unit)
            } else {
                maxima[test, default: [:]][metric] = value * Self.timeScale(of: unit)
            }
        }
        guard !medians.isEmpty else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    /// The median wall-clock time of `test` in nanoseconds.
    func time(_ test: String) -> Double? { medians[test]?["Time(wallclock)"] }

    /// The median of another metric of `test`.
    func value(_ metric: String, of test: String) -> Double? { medians[test]?[metric] }

    /// The largest value of `metric` over `test`'s iterations.
    func maximum(_ metric: String, of test: String) -> Double? { maxima[test]?[metric] }

    private static func timeScale(of unit: String) -> Double {
        switch unit {
        case "μs", "us": 1_000
        case "ms": 1_000_000
        case "s": 1_000_000_000
        default: 1
        }
    }
}
