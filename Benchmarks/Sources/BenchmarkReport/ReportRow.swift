import BenchmarkSupport
import Foundation

/// One figure's line: Comet and reference per operation, the ratio, and each goal checked.
struct ReportRow {
    let figure: Figure
    /// Median nanoseconds per operation.
    let comet: Double?
    let reference: Double?
    let peakMemory: Double?
    let referencePeakMemory: Double?
    /// The peak resident memory during a batch above the memory before it (the largest over
    /// the iterations), where the benchmark records it.
    let peakAboveStart: Double?
    let referencePeakAboveStart: Double?
    let counts: [String: Double]

    init(figure: Figure, results: InfluxResults) {
        self.figure = figure
        let operations = Double(figure.operations)
        let cometTime =
            figure.cometMetric.map { results.value($0.metric, of: $0.benchmark) } ?? results.time(figure.name)
        comet = cometTime.map { $0 / operations }
        let referenceTime =
            figure.referenceMetric.map { results.value($0, of: figure.referenceName) }
            ?? results.time(figure.referenceName)
        reference = referenceTime.map { $0 / operations }
        peakMemory = results.value("Memory(residentpeak)", of: figure.name)
        referencePeakMemory = results.value("Memory(residentpeak)", of: figure.referenceName)
        peakAboveStart = results.maximum(Figure.peakAboveStartMetric, of: figure.name)
        referencePeakAboveStart = results.maximum(Figure.peakAboveStartMetric, of: figure.referenceName)
        var counts: [String: Double] = [:]
        for case .count(let metric, _) in figure.goals {
            counts[metric] = results.value(metric, of: figure.name)
        }
        self.counts = counts
    }

    var ratio: Double? {
        guard let comet, let reference, reference > 0 else { return nil }
        return comet / reference
    }

    /// Each goal as text with "met" / "NOT met" (or "no data").
    var verdicts: [String] {
        figure.goals.map { goal in
            let (text, met): (String, Bool?) =
                switch goal {
                case .ratio(let limit):
                    (String(format: "≤ %.2f×", limit), ratio.map { $0 <= limit })
                case .perOperation(let limit):
                    ("≤ \(Self.duration(limit))", comet.map { $0 <= limit })
                case .overhead(let limit):
                    ("overhead ≤ \(Self.duration(limit))", comet.flatMap { c in reference.map { c - $0 <= limit } })
                case .peakMemoryAboveReference(let limit):
                    (
                        "peak RSS above reference ≤ \(limit >> 20) MB",
                        peakMemory.flatMap { c in referencePeakMemory.map { c - $0 <= Double(limit) } }
                    )
                case .peakMemoryAboveStart(let limit):
                    (
                        "peak RSS above the process baseline ≤ \(limit >> 20) MB",
                        peakAboveStart.map { $0 <= Double(limit) }
                    )
                case .count(let metric, let expected):
                    ("\(metric) = \(expected)", counts[metric].map { Int($0) == expected })
                }
            return text + (met.map { $0 ? " (met)" : " (NOT met)" } ?? " (no data)")
        }
    }

    /// Figures beside the times: overhead, peak memory, counts.
    var notes: [String] {
        var notes: [String] = []
        for goal in figure.goals {
            if case .overhead = goal, let comet, let reference {
                notes.append("overhead \(Self.duration(comet - reference))")
            }
        }
        if let peakAboveStart {
            var note = String(format: "peak %.1f MB above the process baseline", peakAboveStart / 1_048_576)
            if let referencePeakAboveStart {
                note += String(format: " (reference %.1f MB)", referencePeakAboveStart / 1_048_576)
            }
            notes.append(note)
        }
        if let peakMemory, let referencePeakMemory {
            notes.append(
                String(
                    format: "peak RSS %.0f MB (reference %.0f MB)", peakMemory / 1_048_576,
                    referencePeakMemory / 1_048_576))
        }
        for (metric, value) in counts.sorted(by: { $0.key < $1.key }) { notes.append("\(metric) \(Int(value))") }
        return notes
    }

    static func duration(_ nanoseconds: Double) -> String {
        switch abs(nanoseconds) {
        case ..<1_000: String(format: "%.0f ns", nanoseconds)
        case ..<1_000_000: String(format: "%.2f µs", nanoseconds / 1_000)
        case ..<1_000_000_000: String(format: "%.2f ms", nanoseconds / 1_000_000)
        default: String(format: "%.2f s", nanoseconds / 1_000_000_000)
        }
    }
}
