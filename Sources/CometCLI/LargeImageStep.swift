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
/// replace it with the full image when that has loaded, `thumb.append(full)`.
struct LargeImageStep {
    /// The thumbnail request (normally already in the memory cache).
    let thumbnail: ImageRequest
    /// The full-size request.
    let full: ImageRequest

    /// Runs the step on `pipeline` and returns the arrivals in order.
    func run(on pipeline: ImagePipeline) async throws -> [Arrival] {
        let stopwatch = Stopwatch()
        var arrivals: [Arrival] = []
        // Until ImageStream lands: the thumbnail, then the full image, in sequence — the same
        // order and timing `thumb.append(full)` gives.
        for (stage, request) in [("thumbnail", thumbnail), ("full", full)] {
            let response = try await pipeline.imageTask(with: request).response
            arrivals.append(Arrival(stage: stage, response: response, milliseconds: stopwatch.elapsed * 1000))
        }
        return arrivals
    }
}

extension Arrival {
    /// An arrival for `response` at `milliseconds`.
    init(stage: String, response: ImageResponse, milliseconds: Double) {
        let source = switch response.cacheType {
        case .memory?: "memory"
        case .disk?: "disk"
        case nil: "network"
        }
        self.init(stage: stage, width: response.image.width, height: response.image.height, source: source,
                  milliseconds: milliseconds)
    }
}
