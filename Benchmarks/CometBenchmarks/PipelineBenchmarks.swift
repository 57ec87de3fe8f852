import Benchmark
import BenchmarkSupport
import Comet
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pipeline's own cost: a no-op loader (bytes at once, on the caller's thread) and the
/// cheapest real decode (a 1×1 PNG), the default configuration with an empty memory cache.
enum PipelineBenchmarks {
    static func register() {
        registerOverhead()
        registerCreateCancel()
        registerCoalescing()
    }

    /// The default configuration with the no-op loader and a memory cache of its own (so every
    /// request is a miss that ends with a cache write, as a user's first load does).
    static func coldPipeline(loader: any DataLoading = InstantLoader(data: Workloads.pixel)) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = loader
            $0.imageCache = ImageCache()
        }
    }

    /// The reference's unit of work: what the pipeline calls, called directly.
    static func loadAndDecode(_ loader: InstantLoader, url: URL) -> Image? {
        let received = ReceivedData()
        _ = loader.loadData(
            with: URLRequest(url: url), didReceiveData: { data, _ in received.append(data) }, completion: { _ in })
        return try? PNGDecoder().decode(received.data).image
    }

    private static func registerOverhead() {
        let figure = Figures.overhead
        var round = 0
        Benchmark(figure.name, configuration: .suite()) { benchmark in
            let pipeline = coldPipeline()
            round += 1
            benchmark.startMeasurement()
            for index in 0..<figure.operations {
                blackHole(try? await pipeline.image(for: URL(string: "https://bench.invalid/\(round)/\(index).png")!))
            }
        }
        let loader = InstantLoader(data: Workloads.pixel)
        Benchmark(figure.referenceName, configuration: .suite()) { _ in
            round += 1
            for index in 0..<figure.operations {
                blackHole(loadAndDecode(loader, url: URL(string: "https://bench.invalid/\(round)/\(index).png")!))
            }
        }
    }

    private static func registerCreateCancel() {
        let figure = Figures.createCancel
        let pipeline = coldPipeline()
        let requests = (0..<figure.operations).map {
            ImageRequest(url: URL(string: "https://bench.invalid/cancel/\($0).png"))
        }
        Benchmark(figure.name, configuration: .suite()) { _ in
            for request in requests { pipeline.imageTask(with: request).cancel() }
        }
        Benchmark(figure.referenceName, configuration: .suite()) { _ in
            for request in requests { Task { blackHole(request) }.cancel() }
        }
    }

    /// 1000 equal requests submitted while the one download is held, then released: the counts
    /// are custom metrics (downloads, decodes).
    private static func registerCoalescing() {
        let figure = Figures.coalescing
        let downloads = BenchmarkMetric.custom("downloads", polarity: .prefersSmaller, useScalingFactor: false)
        let decodes = BenchmarkMetric.custom("decodes", polarity: .prefersSmaller, useScalingFactor: false)
        let configuration = Benchmark.Configuration.suite(iterations: 500, extra: [downloads, decodes])
        let request = ImageRequest(url: URL(string: "https://bench.invalid/same.png"))
        Benchmark(figure.name, configuration: configuration) { benchmark in
            let loader = GatedLoader(data: Workloads.pixel)
            let pipeline = coldPipeline(loader: loader)
            benchmark.startMeasurement()
            let tasks = (0..<1000).map { _ in pipeline.imageTask(with: request) }
            loader.open()
            for task in tasks { blackHole(try? await task.image) }
            benchmark.stopMeasurement()
            benchmark.measurement(downloads, loader.loadCount)
            benchmark.measurement(decodes, pipeline.metrics.decodes)
        }
        Benchmark(figure.referenceName, configuration: configuration) { benchmark in
            let loader = GatedLoader(data: Workloads.pixel)
            let pipeline = coldPipeline(loader: loader)
            benchmark.startMeasurement()
            let task = pipeline.imageTask(with: request)
            loader.open()
            blackHole(try? await task.image)
        }
    }
}
