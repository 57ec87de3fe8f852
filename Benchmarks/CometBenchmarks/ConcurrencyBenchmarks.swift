import Benchmark
import BenchmarkSupport
import Comet
import Foundation

/// How the cost per request grows with the number of requests in flight: N distinct requests
/// (no-op loader, 1×1 PNG, default configuration, an empty memory cache) submitted at once through `image(for:)` from a task
/// group, against the same N loads and decodes run in a task group without the pipeline.
enum ConcurrencyBenchmarks {
    static func register() {
        for figure in Figures.concurrency {
            let count = figure.operations
            let configuration = Benchmark.Configuration.suite(seconds: 3, iterations: max(5, 20_000 / count))
            var round = 0
            Benchmark(figure.name, configuration: configuration) { benchmark in
                let pipeline = PipelineBenchmarks.coldPipeline()
                round += 1
                let prefix = "https://bench.invalid/\(count)/\(round)/"
                benchmark.startMeasurement()
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<count {
                        group.addTask {
                            blackHole(try? await pipeline.image(for: URL(string: prefix + "\(index).png")!))
                        }
                    }
                }
            }
            let loader = InstantLoader(data: Workloads.pixel)
            Benchmark(figure.referenceName, configuration: configuration) { benchmark in
                round += 1
                let prefix = "https://bench.invalid/\(count)/\(round)/"
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<count {
                        group.addTask {
                            blackHole(
                                PipelineBenchmarks.loadAndDecode(loader, url: URL(string: prefix + "\(index).png")!))
                        }
                    }
                }
            }
        }
    }
}
