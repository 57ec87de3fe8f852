import Foundation

/// Timing of one benchmark: per-iteration wall-clock durations in nanoseconds.
struct Measurement {
    var samples: [Double] = []

    var median: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    var minimum: Double { samples.min() ?? .nan }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}

/// Runs Comet's code and its reference alternately (A, B, A, B…) after a warm-up, so that
/// frequency changes and other load affect both alike; reports medians and their ratio.
struct Comparison {
    let name: String
    let target: String
    var comet = Measurement()
    var reference = Measurement()

    var ratio: Double { comet.median / reference.median }

    static func run(_ name: String, target: String, iterations: Int,
                    comet: () -> Void, reference: () -> Void) -> Comparison {
        var result = Comparison(name: name, target: target)
        for _ in 0..<max(1, iterations / 10) { comet(); reference() } // warm-up
        for _ in 0..<iterations {
            var start = Measurement.now()
            comet()
            result.comet.samples.append(Double(Measurement.now() - start))
            start = Measurement.now()
            reference()
            result.reference.samples.append(Double(Measurement.now() - start))
        }
        return result
    }
}

func formatDuration(_ nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<1_000: String(format: "%.0f ns", nanoseconds)
    case ..<1_000_000: String(format: "%.1f µs", nanoseconds / 1_000)
    default: String(format: "%.2f ms", nanoseconds / 1_000_000)
    }
}
