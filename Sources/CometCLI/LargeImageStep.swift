import Comet
import Foundation

/// One image delivered while opening the large image: the thumbnail first, then the full image.
struct Arrival: Codable, Sendable {
    /// `thumbnail` or `full`.
    var stage: String
    var width: Int
    var height: Int
    /// `memory`, `disk` or `network`.
    var source: String
    /// Milliseconds after the step started.
    var milliseconds: Double
}

/// Opens the large image the way a gallery app does: show the small thumbnail at once, then
/// replace it with the full image when that has loaded — `thumb.append(full)` over two
/// ``ImageStream``s, consumed as an async sequence.
struct LargeImageStep {
    /// The thumbnail request (normally already in the memory cache).
    let thumbnail: ImageRequest
    /// The full-size request.
    let full: ImageRequest

    /// Runs the step on `pipeline` and returns the arrivals in order (previews, if the pipeline
    /// makes them, are reported as stage `preview`).
    func run(on pipeline: ImagePipeline) async throws -> [Arrival] {
        let stopwatch = Stopwatch()
        let thumb = pipeline.imageStream(with: thumbnail)
        let full = pipeline.imageStream(with: self.full)
        var arrivals: [Arrival] = []
        var finals = 0
        for try await response in thumb.append(full).values {
            let stage = response.isPreview ? "preview" : (finals == 0 ? "thumbnail" : "full")
            if !response.isPreview { finals += 1 }
            arrivals.append(Arrival(stage: stage, response: response, milliseconds: stopwatch.elapsed * 1000))
        }
        return arrivals
    }
}

extension Arrival {
    /// An arrival for `response` at `milliseconds`.
    init(stage: String, response: ImageResponse, milliseconds: Double) {
        let source =
            switch response.cacheType {
            case .memory?: "memory"
            case .disk?: "disk"
            case nil: "network"
            }
        self.init(
            stage: stage, width: response.image.width, height: response.image.height, source: source,
            milliseconds: milliseconds)
    }
}
