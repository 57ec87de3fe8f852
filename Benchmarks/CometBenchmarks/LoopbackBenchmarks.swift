import Benchmark
import BenchmarkSupport
import CReference
import Comet
import CometAsyncHTTPClient
import Foundation

/// The pipeline end to end over an in-process loopback HTTP server, with cold caches (a new
/// pipeline, URLSession included, and no memory or disk cache per iteration), against the C
/// loops over the same bytes in memory on one core.
enum LoopbackBenchmarks {
    static func register() {
        let configuration = Benchmark.Configuration.suite(seconds: 10, iterations: 8, warmup: 1)
        Benchmark(
            Figures.loopbackDecode.name, configuration: configuration,
            closure: { (benchmark, server: LoopbackServer) async in
                await loadAll(from: server, processors: [], benchmark: benchmark)
            }, setup: { try await LoopbackServer.start() })
        Benchmark(Figures.loopbackDecode.referenceName, configuration: configuration) { _ in
            for photo in Workloads.photos {
                blackHole(photo.withUnsafeBytes { ref_jpeg_decode($0.baseAddress, $0.count, 1) })
            }
        }

        let fill: [any ImageProcessing] = [
            .resize(size: Size(width: 256, height: 256), contentMode: .aspectFill, crop: true)
        ]
        Benchmark(
            Figures.loopbackThumbnail.name, configuration: configuration,
            closure: { (benchmark, server: LoopbackServer) async in
                await loadAll(from: server, processors: fill, benchmark: benchmark)
            }, setup: { try await LoopbackServer.start() })
        registerDefaultConfiguration()
        var thumbnail = [UInt8](repeating: 0, count: 256 * 256 * 4)
        Benchmark(Figures.loopbackThumbnail.referenceName, configuration: configuration) { _ in
            for photo in Workloads.photos {
                blackHole(photo.withUnsafeBytes { ref_jpeg_thumbnail($0.baseAddress, $0.count, 256, &thumbnail) })
            }
        }
    }

    /// The default-configuration figures: wall time per image and, as a custom metric, the
    /// process's CPU time per batch; their references, the C loop and Comet's own decoder and
    /// resize called directly, one image after another.
    static func registerDefaultConfiguration() {
        let cpuTime = BenchmarkMetric.custom("cpuTime", polarity: .prefersSmaller, useScalingFactor: false)
        // Wall clock and CPU time only: malloc counting (the interposer) and the resident-memory
        // sampler would add their own cost to what a user's process does.
        let configuration = Benchmark.Configuration(
            metrics: [.wallClock, cpuTime], timeUnits: .nanoseconds, warmupIterations: 1,
            maxDuration: .seconds(10), maxIterations: 8)
        // No warm-up iteration: a batch's peak is measured above the memory before it, and the
        // first batch is the one whose heap growth no earlier batch has already paid for (the
        // largest of the iterations is reported). The process is warmed up by two loads instead.
        let peakAboveStart = BenchmarkMetric.custom(
            Figure.peakAboveStartMetric, polarity: .prefersSmaller, useScalingFactor: false)
        let memoryConfiguration = Benchmark.Configuration.suite(
            seconds: 10, iterations: 8, warmup: 0, extra: [peakAboveStart])
        registerThumbnailBatch(Figures.loopbackDefault, cpu: Figures.loopbackDefaultCPU, configuration: configuration) {
            // Cold: a new pipeline (URLSession included) and an empty memory cache per iteration.
            ImagePipeline { $0.imageCache = ImageCache() }
        }
        registerThumbnailBatch(
            Figures.loopbackAsyncHTTPClient, cpu: Figures.loopbackAsyncHTTPClientCPU,
            configuration: configuration
        ) {
            // Cold as well: a new loader (its HTTPClient and connection pool) per iteration.
            ImagePipeline {
                $0.imageCache = ImageCache()
                $0.dataLoader = AsyncHTTPClientDataLoader()
            }
        }
        registerThumbnailBatch(
            Figures.loopbackURLSession, cpu: Figures.loopbackURLSessionCPU, configuration: configuration
        ) {
            ImagePipeline {
                $0.imageCache = ImageCache()
                $0.dataLoader = URLSessionDataLoader()
            }
        }
        LoaderBenchmarks.register()
        Benchmark(
            Figures.loopbackDecodeMemory.name, configuration: memoryConfiguration,
            closure: { (benchmark, origin: NginxOrigin) async in
                await warmUpNetworkingOnce(origin)
                let pipeline = ImagePipeline { $0.imageCache = nil }
                let start = ResidentMemory.resetPeak()
                await withTaskGroup(of: Void.self) { group in
                    for index in Workloads.photos.indices {
                        group.addTask { blackHole(try? await pipeline.image(for: origin.url(photo: index))) }
                    }
                }
                if let start { benchmark.measurement(peakAboveStart, ResidentMemory.peak - start) }
            }, setup: { try NginxOrigin.start() }, teardown: { NginxOrigin.stopAll() })
        Benchmark(Figures.loopbackDecodeMemory.referenceName, configuration: memoryConfiguration) { benchmark in
            blackHole(Workloads.photos.count)  // loaded before the batch, as the Comet side's origin has them
            let start = ResidentMemory.resetPeak()
            for photo in Workloads.photos {
                blackHole(photo.withUnsafeBytes { ref_jpeg_decode($0.baseAddress, $0.count, 1) })
            }
            if let start { benchmark.measurement(peakAboveStart, ResidentMemory.peak - start) }
        }
    }

    /// One default-configuration batch: 200 fill+crop thumbnails from the nginx origin through the
    /// pipeline `makePipeline` builds (wall time, and the process's CPU time as a custom metric),
    /// with its two references under the figures' names: the C loop, and Comet's decoder and
    /// resize called directly. The pipeline decodes at the DCT scale that covers the thumbnail
    /// (the resize's decoding downsampling); both references do the same.
    private static func registerThumbnailBatch(
        _ figure: Figure, cpu: Figure, configuration: Benchmark.Configuration,
        makePipeline: @escaping @Sendable () -> ImagePipeline
    ) {
        let cpuTime = BenchmarkMetric.custom("cpuTime", polarity: .prefersSmaller, useScalingFactor: false)
        let resize = ImageProcessors.Resize(size: Size(width: 256, height: 256), contentMode: .aspectFill, crop: true)
        Benchmark(
            figure.name, configuration: configuration,
            closure: { (benchmark, origin: NginxOrigin) async in
                let pipeline = makePipeline()
                let cpuBefore = processCPUTime()
                benchmark.startMeasurement()
                let failures = await withTaskGroup(of: Int.self) { group in
                    for index in Workloads.photos.indices {
                        group.addTask {
                            let request = ImageRequest(url: origin.url(photo: index), processors: [resize])
                            return (try? await pipeline.image(for: request)) == nil ? 1 : 0
                        }
                    }
                    return await group.reduce(0, +)
                }
                benchmark.stopMeasurement()
                benchmark.measurement(cpuTime, Int(processCPUTime() - cpuBefore))
                if failures > 0 { benchmark.error("\(failures) of \(Workloads.photos.count) loads failed") }
            }, setup: { try NginxOrigin.start() }, teardown: { NginxOrigin.stopAll() })
        var thumbnail = [UInt8](repeating: 0, count: 256 * 256 * 4)
        Benchmark(figure.referenceName, configuration: configuration) { _ in
            for photo in Workloads.photos {
                blackHole(photo.withUnsafeBytes { ref_jpeg_thumbnail($0.baseAddress, $0.count, 256, &thumbnail) })
            }
        }
        let covering = ImageDecodingOptions(downsampling: resize.decodingDownsampling)
        // The same work as the pipeline's, spread the same way: on both cores (the same code
        // costs about a quarter more CPU time per image with both cores busy than with one, on
        // this machine; ThumbnailBatch `direct` against `direct2`), and with the same output:
        // the pipeline's memory cache holds the batch's 200 thumbnails until the batch ends, so
        // the reference keeps its thumbnails until the end as well.
        Benchmark(cpu.referenceName, configuration: configuration) { benchmark in
            let photos = Workloads.photos
            let cpuBefore = processCPUTime()
            let halves = [KeptThumbnails(), KeptThumbnails()]
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                var thumbnails: [Image] = []
                thumbnails.reserveCapacity(photos.count / 2 + 1)
                for index in stride(from: half, to: photos.count, by: 2) {
                    if let thumbnail = try? resize.process(JPEGDecoder().decode(photos[index], options: covering).image)
                    {
                        thumbnails.append(thumbnail)
                    }
                }
                halves[half].thumbnails = thumbnails
            }
            benchmark.measurement(cpuTime, Int(processCPUTime() - cpuBefore))
            blackHole(halves)
        }
    }

    /// Loads two photos through a pipeline of their own, once per process: URLSession (libcurl)
    /// and the decoders are set up before a memory figure's first batch, as in an application
    /// that has loaded images before.
    private static func warmUpNetworkingOnce(_ origin: NginxOrigin) async {
        guard WarmUp.isFirst() else { return }
        let pipeline = ImagePipeline { $0.imageCache = nil }
        for index in 0..<2 { blackHole(try? await pipeline.image(for: origin.url(photo: index))) }
    }

    /// Loads the 200 photos through a new pipeline with no caches, all submitted at once (the
    /// pipeline's default limit of 6 concurrent downloads applies).
    private static func loadAll(from server: LoopbackServer, processors: [any ImageProcessing], benchmark: Benchmark)
        async
    {
        let pipeline = ImagePipeline {
            $0.imageCache = nil
            $0.dataCache = nil
        }
        let failures = await withTaskGroup(of: Int.self) { group in
            for index in Workloads.photos.indices {
                group.addTask {
                    let request = ImageRequest(url: server.url("photo", index), processors: processors)
                    return (try? await pipeline.image(for: request)) == nil ? 1 : 0
                }
            }
            return await group.reduce(0, +)
        }
        if failures > 0 { benchmark.error("\(failures) of \(Workloads.photos.count) loads failed") }
    }
}

/// Whether the process has been warmed up (``LoopbackBenchmarks``' memory figure).
private enum WarmUp {
    private static let done = NSLock()
    nonisolated(unsafe) private static var isDone = false

    static func isFirst() -> Bool {
        done.withLock {
            defer { isDone = true }
            return !isDone
        }
    }
}

/// One thread's thumbnails of a reference batch: written by that thread alone, read after
/// `concurrentPerform` has returned (which orders the write before the read).
private final class KeptThumbnails: @unchecked Sendable {
    var thumbnails: [Image] = []
}
