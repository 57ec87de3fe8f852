import BenchmarkSupport
import Comet
import CometAsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// A profiling harness, not a benchmark: the default-configuration batch of `make bench` (200
// fill+crop 256² thumbnails from a local nginx, a cold pipeline per batch) run BATCHES times
// in a plain process, so that `perf record` sees nothing but the pipeline and its loader.
//
//     .build-bench/release/ThumbnailBatch [default|urlsession|asynchttpclient|memory|memory-nocache|direct|direct-keep|direct2] [BATCHES] [area]
//
// `area` resizes with `filter: .areaAverage` (a covering decode and an area average: the work
// every thumbnail did before Lanczos3 became the default) instead of the default Lanczos3.
//
// `direct` runs the CPU reference instead: Comet's decoder and resize on the same bytes in
// memory, on one thread; `direct2` the same work split over two threads, as the pipeline spreads
// it over both cores (CPU time per image on two busy cores is not always one core's: shared
// caches and the host's scheduling). `direct-keep` keeps the batch's thumbnails until it ends, as
// the pipeline's memory cache does (fresh memory for each, not one buffer reused).
// `memory-nocache` is `memory` without the memory cache. `memory` runs the pipeline on a loader that answers at once with the photo's bytes
// (no network: the pipeline's own cost above `direct`). Prints wall and CPU time per image.
let arguments = CommandLine.arguments
let mode = arguments.count > 1 ? arguments[1] : "default"
let batches = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let filter: ImageProcessors.Resize.Filter = arguments.count > 3 && arguments[3] == "area" ? .areaAverage : .lanczos3
let resize = ImageProcessors.Resize(
    size: Size(width: 256, height: 256), contentMode: .aspectFill, crop: true, filter: filter)
let origin = try NginxOrigin.start()
defer { NginxOrigin.stopAll() }

func batch() async -> Int {
    if mode == "direct" || mode == "direct-keep" {
        let covering = ImageDecodingOptions(downsampling: resize.decodingDownsampling)
        var kept: [Image] = []
        for photo in Workloads.photos {
            let thumbnail = try? resize.process(JPEGDecoder().decode(photo, options: covering).image)
            if mode == "direct-keep", let thumbnail { kept.append(thumbnail) }
        }
        withExtendedLifetime(kept) {}  // held to the batch's end, then freed together
        return 0
    }
    if mode == "direct2" {
        let covering = ImageDecodingOptions(downsampling: resize.decodingDownsampling)
        let photos = Workloads.photos
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            for index in stride(from: half, to: photos.count, by: 2) {
                _ = try? resize.process(JPEGDecoder().decode(photos[index], options: covering).image)
            }
        }
        return 0
    }
    let pipeline = ImagePipeline {
        $0.imageCache = mode == "memory-nocache" ? nil : ImageCache()
        if mode == "asynchttpclient" { $0.dataLoader = AsyncHTTPClientDataLoader() }
        if mode == "urlsession" { $0.dataLoader = URLSessionDataLoader() }
        if mode.hasPrefix("memory") { $0.dataLoader = PhotoLoader() }
    }
    return await withTaskGroup(of: Int.self) { group in
        for index in Workloads.photos.indices {
            group.addTask {
                let request = ImageRequest(url: origin.url(photo: index), processors: [resize])
                return (try? await pipeline.image(for: request)) == nil ? 1 : 0
            }
        }
        return await group.reduce(0, +)
    }
}

_ = await batch()  // warm-up: workloads generated, libraries loaded
let clock = ContinuousClock()
let cpuBefore = processCPUTime()
let start = clock.now
var failures = 0
for _ in 0..<batches { failures += await batch() }
let wall = clock.now - start
let cpu = processCPUTime() - cpuBefore
let images = Double(batches * Workloads.photos.count)
let wallMs = Double(wall.components.seconds) * 1e3 + Double(wall.components.attoseconds) * 1e-15
print(
    "\(mode) (\(filter.rawValue)): \(batches) batches, \(failures) failures, wall \(String(format: "%.3f", wallMs / images)) ms/image, "
        + "CPU \(String(format: "%.3f", cpu / 1e6 / images)) ms/image")

/// Answers a photo URL at once with the photo's bytes, on the caller's thread.
final class PhotoLoader: DataLoading, Sendable {
    struct NoTask: DataLoadingTask { func cancel() {} }

    func loadData(
        with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        let index = request.url.flatMap { Int($0.lastPathComponent) } ?? 0
        let photo = Workloads.photos[index]
        let response = HTTPURLResponse(
            url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Length": String(photo.count)])!
        didReceiveData(photo, response)
        completion(nil)
        return NoTask()
    }
}
