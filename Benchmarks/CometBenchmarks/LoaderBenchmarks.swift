import Benchmark
import BenchmarkSupport
import Comet
import Foundation

/// The default loader's own costs: nothing while idle, and connections reused under a burst.
enum LoaderBenchmarks {
    static func register() {
        registerIdle()
        registerReuse()
    }

    /// A pipeline loads one photo (its loader's poll thread is running), then sits idle for a
    /// second: the poll thread's context switches in that second are counted from /proc.
    private static func registerIdle() {
        let figure = Figures.loaderIdle
        let wakeups = BenchmarkMetric.custom("wakeups", polarity: .prefersSmaller, useScalingFactor: false)
        let configuration = Benchmark.Configuration.suite(seconds: 20, iterations: 3, warmup: 0, extra: [wakeups])
        Benchmark(
            figure.name, configuration: configuration,
            closure: { (benchmark, origin: NginxOrigin) async in
                let pipeline = ImagePipeline { $0.imageCache = nil }
                blackHole(try? await pipeline.image(for: origin.url(photo: 0)))
                // The transfer's last steps (the handle's removal) are over well before this.
                try? await Task.sleep(for: .milliseconds(100))
                let before = PollThreads.contextSwitches()
                try? await Task.sleep(for: .seconds(1))
                let after = PollThreads.contextSwitches()
                benchmark.measurement(wakeups, max(0, after - before))
                withExtendedLifetime(pipeline) {}
            }, setup: { try NginxOrigin.start() }, teardown: { NginxOrigin.stopAll() })
        Benchmark(figure.referenceName, configuration: configuration) { benchmark in
            try? await Task.sleep(for: .seconds(1))
            benchmark.measurement(wakeups, 0)
        }
    }

    /// 10 000 requests, 50 for each of the 200 photos, all in flight at once through one default
    /// pipeline: the connections nginx accepted meanwhile.
    private static func registerReuse() {
        let figure = Figures.loaderReuse
        let connections = BenchmarkMetric.custom("connections", polarity: .prefersSmaller, useScalingFactor: false)
        let configuration = Benchmark.Configuration.suite(
            seconds: 20, iterations: 3, warmup: 0, extra: [connections])
        Benchmark(
            figure.name, configuration: configuration,
            closure: { (benchmark, origin: NginxOrigin) async in
                let pipeline = ImagePipeline { $0.imageCache = nil }
                let before = origin.acceptedConnections() ?? 0
                benchmark.startMeasurement()
                await withTaskGroup(of: Void.self) { group in
                    for round in 0..<50 {
                        for index in Workloads.photos.indices {
                            group.addTask {
                                blackHole(round)
                                blackHole(try? await pipeline.image(for: origin.url(photo: index)))
                            }
                        }
                    }
                }
                benchmark.stopMeasurement()
                // The status request that reads the count opens one connection of its own.
                let after = (origin.acceptedConnections() ?? 0) - 1
                benchmark.measurement(connections, after - before)
            }, setup: { try NginxOrigin.start() }, teardown: { NginxOrigin.stopAll() })
        Benchmark(
            figure.referenceName, configuration: configuration,
            closure: { (_, origin: NginxOrigin) async in
                let pipeline = ImagePipeline { $0.imageCache = nil }
                await withTaskGroup(of: Void.self) { group in
                    for index in Workloads.photos.indices {
                        group.addTask { blackHole(try? await pipeline.image(for: origin.url(photo: index))) }
                    }
                }
            }, setup: { try NginxOrigin.start() }, teardown: { NginxOrigin.stopAll() })
    }
}

/// The default loaders' poll threads ("comet.curl") of this process, read from /proc.
enum PollThreads {
    /// Voluntary plus involuntary context switches of every poll thread so far.
    static func contextSwitches() -> Int {
        let tasks = "/proc/self/task"
        guard let ids = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return 0 }
        var total = 0
        for id in ids {
            guard let name = try? String(contentsOfFile: "\(tasks)/\(id)/comm", encoding: .utf8),
                name.trimmingCharacters(in: .whitespacesAndNewlines) == "comet.curl",
                let status = try? String(contentsOfFile: "\(tasks)/\(id)/status", encoding: .utf8)
            else { continue }
            for line in status.split(separator: "\n") where line.contains("ctxt_switches") {
                total +=
                    Int(line.split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "") ?? 0
            }
        }
        return total
    }
}
