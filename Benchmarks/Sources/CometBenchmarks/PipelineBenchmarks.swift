import CReference
import Comet
import FlyingFox
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A loader that answers at once with fixed bytes: isolates the pipeline's own cost.
final class InstantLoader: DataLoading {
    let data: Data
    init(data: Data) { self.data = data }

    func loadData(with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
                  completion: @escaping @Sendable ((any Error)?) -> Void) -> any DataLoadingTask {
        didReceiveData(data, URLResponse(url: request.url!, mimeType: nil, expectedContentLength: data.count, textEncodingName: nil))
        completion(nil)
        return NoTask()
    }

    struct NoTask: DataLoadingTask { func cancel() {} }
}

/// One line of the pipeline report.
struct PipelineFigure {
    let name: String
    let value: String
    let reference: String
    let target: String
}

enum PipelineBenchmarks {
    static func run() async throws -> [PipelineFigure] {
        var figures: [PipelineFigure] = []
        let pixel = try Image(width: 1, height: 1, color: .white).pngData()

        // Memory-cache hits.
        let hitPipeline = ImagePipeline {
            $0.dataLoader = InstantLoader(data: pixel)
            $0.imageCache = ImageCache()
            $0.isRateLimiterEnabled = false
        }
        let request = ImageRequest(url: URL(string: "https://example.com/hit.png")!, processors: [.resize(width: 1)])
        _ = try await hitPipeline.image(for: request)
        let iterations = 200_000
        var start = Measurement.now()
        for _ in 0..<iterations { _ = try await hitPipeline.image(for: request) }
        let asyncHit = Double(Measurement.now() - start) / Double(iterations)
        start = Measurement.now()
        for _ in 0..<iterations { _ = hitPipeline.cache[request] }
        let subscriptHit = Double(Measurement.now() - start) / Double(iterations)
        figures.append(PipelineFigure(name: "memory hit via image(for:)", value: formatDuration(asyncHit), reference: "", target: "≤ 5 µs"))
        figures.append(PipelineFigure(name: "memory hit via cache[request]", value: formatDuration(subscriptHit), reference: "", target: "≤ 1 µs"))

        // Create + cancel.
        let cancelPipeline = ImagePipeline {
            $0.dataLoader = InstantLoader(data: pixel)
            $0.imageCache = nil
            $0.isRateLimiterEnabled = false
        }
        let cancelIterations = 50_000
        start = Measurement.now()
        for i in 0..<cancelIterations {
            cancelPipeline.imageTask(with: ImageRequest(url: URL(string: "https://example.com/\(i)")!)).cancel()
        }
        let createCancel = Double(Measurement.now() - start) / Double(cancelIterations)
        figures.append(PipelineFigure(name: "create + cancel a task", value: formatDuration(createCancel), reference: "", target: "≤ 4 µs"))

        // Overhead per request: distinct 1×1 PNGs, no caches, at increasing concurrency. The
        // reference is decoding the same bytes directly (what the pipeline adds is the rest).
        let directStart = Measurement.now()
        for _ in 0..<1000 { _ = try PNGDecoder().decode(pixel) }
        let directDecode = Double(Measurement.now() - directStart) / 1000
        for concurrency in [10, 100, 1000, 10_000] {
            let pipeline = ImagePipeline {
                $0.dataLoader = InstantLoader(data: pixel)
                $0.imageCache = nil
                $0.isRateLimiterEnabled = false
            }
            let begin = Measurement.now()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<concurrency {
                    group.addTask { _ = try await pipeline.image(for: URL(string: "https://example.com/\(concurrency)/\(i)")!) }
                }
                try await group.waitForAll()
            }
            let perRequest = Double(Measurement.now() - begin) / Double(concurrency)
            figures.append(PipelineFigure(name: "per request, \(concurrency) concurrent", value: formatDuration(perRequest),
                                          reference: "decode alone \(formatDuration(directDecode))", target: "flat; ≤ 30 µs overhead"))
        }

        // Coalescing: 1000 equal requests.
        let counting = CountingLoader(data: pixel)
        let coalescing = ImagePipeline {
            $0.dataLoader = counting
            $0.imageCache = nil
            $0.isRateLimiterEnabled = false
        }
        start = Measurement.now()
        let tasks = (0..<1000).map { _ in coalescing.imageTask(with: ImageRequest(url: URL(string: "https://example.com/same.png")!)) }
        for task in tasks { _ = try await task.image }
        let coalesced = Double(Measurement.now() - start)
        figures.append(PipelineFigure(name: "1000 equal requests", value: formatDuration(coalesced),
                                      reference: "\(counting.count) download, \(coalescing.metrics.decodes) decode", target: "1 download"))

        figures.append(try await loopbackThroughput())
        return figures
    }

    /// 200 JPEGs 1024×768 over loopback, decoded by the pipeline (6 concurrent downloads, no
    /// caches), against the C loop decoding the same bytes from memory, one after another.
    static func loopbackThroughput() async throws -> PipelineFigure {
        let photos = (0..<200).map { try! PhotoGenerator.image(width: 1024, height: 768, seed: UInt32(1000 + $0 % 20)).jpegData(compressionQuality: 0.85) }
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), logger: .disabled)
        await server.appendRoute("GET /photo/*") { request in
            let index = Int(request.path.split(separator: "/").last ?? "") ?? 0
            return HTTPResponse(statusCode: .ok, body: photos[index % photos.count])
        }
        let serverTask = Task { try await server.run() }
        defer { serverTask.cancel() }
        try await server.waitUntilListening()
        guard case .ip4(_, let port)? = await server.listeningAddress else { throw URLError(.badURL) }
        let pipeline = ImagePipeline {
            $0.imageCache = nil
            $0.isRateLimiterEnabled = false
        }
        let start = Measurement.now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<photos.count {
                group.addTask { _ = try await pipeline.image(for: URL(string: "http://127.0.0.1:\(port)/photo/\(index)")!) }
            }
            try await group.waitForAll()
        }
        let pipelineTime = Double(Measurement.now() - start)
        let referenceStart = Measurement.now()
        for photo in photos { photo.withUnsafeBytes { _ = ref_jpeg_decode($0.baseAddress, $0.count, 1) } }
        let referenceTime = Double(Measurement.now() - referenceStart)
        let ratio = referenceTime / pipelineTime
        return PipelineFigure(name: "200 JPEG 1024×768 over loopback", value: String(format: "%.0f/s", 200 / (pipelineTime / 1e9)),
                              reference: String(format: "C loop %.0f/s → %.2f× of it", 200 / (referenceTime / 1e9), ratio),
                              target: "≥ 0.8×")
    }
}

/// Counts loads (for the coalescing figure).
final class CountingLoader: DataLoading {
    let inner: InstantLoader
    private let loads = Mutex(0)
    init(data: Data) { inner = InstantLoader(data: data) }
    var count: Int { loads.withLock { $0 } }
    func loadData(with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
                  completion: @escaping @Sendable ((any Error)?) -> Void) -> any DataLoadingTask {
        loads.withLock { $0 += 1 }
        return inner.loadData(with: request, didReceiveData: didReceiveData, completion: completion)
    }
}
