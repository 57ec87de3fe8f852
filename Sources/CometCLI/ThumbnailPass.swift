import Comet
import Foundation

/// What one pass over the gallery did: counts from the responses and from the pipeline's metrics.
struct PassReport: Codable, Sendable {
    /// `network`, `memory` or `disk`: what the pass demonstrates.
    var name: String
    /// Requests made (the gallery list, duplicates included).
    var requests: Int
    /// Requests that failed.
    var failures: Int
    /// Responses served from the memory cache (``ImageResponse/cacheType`` `.memory`).
    var memoryResponses: Int
    /// Responses decoded from the disk cache (`.disk`).
    var diskResponses: Int
    /// Responses loaded (not from a cache).
    var loadedResponses: Int
    /// Downloads the pipeline started during the pass.
    var downloads: Int
    /// Requests that joined work already in flight.
    var coalescedRequests: Int
    /// The pipeline's memory-cache hits during the pass.
    var memoryCacheHits: Int
    /// The pipeline's disk-cache hits during the pass (one per distinct image read from disk).
    var diskCacheHits: Int
    /// Bytes downloaded during the pass.
    var bytesDownloaded: Int
    /// Wall time of the pass in seconds.
    var seconds: Double
}

/// One pass of the demo: loads every request through a pipeline at once (the pipeline queues,
/// prioritises and coalesces), with a progress bar, and reports what happened.
struct ThumbnailPass {
    /// The pass's name (see ``PassReport/name``).
    let name: String
    /// The requests, in gallery order.
    let requests: [ImageRequest]
    /// Names shown on the progress bar, one per request.
    let labels: [String]

    /// The outcome: the report, the image of each request that succeeded (by index), and one
    /// message per failure.
    struct Outcome: Sendable {
        var report: PassReport
        var images: [Int: Image]
        var errors: [String]
    }

    /// Runs the pass on `pipeline`, drawing progress on `bar`.
    func run(on pipeline: ImagePipeline, bar: ProgressBar) async -> Outcome {
        let before = pipeline.metrics
        let stopwatch = Stopwatch()
        var images: [Int: Image] = [:]
        var errors: [String] = []
        var counts = (memory: 0, disk: 0, loaded: 0)
        await withTaskGroup(of: (Int, Result<ImageResponse, any Error>).self) { group in
            for (index, request) in requests.enumerated() {
                let task = pipeline.imageTask(with: request)
                group.addTask { (index, await Result { try await task.response }) }
            }
            for await (index, result) in group {
                switch result {
                case .success(let response):
                    images[index] = response.image
                    switch response.cacheType {
                    case .memory?: counts.memory += 1
                    case .disk?: counts.disk += 1
                    case nil: counts.loaded += 1
                    }
                case .failure(let error):
                    errors.append("\(labels[index]): \(error)")
                    bar.message("✗ \(labels[index]): \(error)")
                }
                bar.setBytes(pipeline.metrics.bytesLoaded - before.bytesLoaded)
                bar.advance(detail: labels[index])
            }
        }
        let after = pipeline.metrics
        let report = PassReport(
            name: name, requests: requests.count, failures: errors.count,
            memoryResponses: counts.memory, diskResponses: counts.disk, loadedResponses: counts.loaded,
            downloads: after.downloadsStarted - before.downloadsStarted,
            coalescedRequests: after.coalescedRequests - before.coalescedRequests,
            memoryCacheHits: after.memoryCacheHits - before.memoryCacheHits,
            diskCacheHits: after.diskCacheHits - before.diskCacheHits,
            bytesDownloaded: after.bytesLoaded - before.bytesLoaded,
            seconds: stopwatch.elapsed)
        return Outcome(report: report, images: images, errors: errors)
    }
}

extension Result where Failure == any Error {
    /// Captures the outcome of an async throwing closure.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
