import Foundation

/// The demo's results: what `--json` prints, and what the text summary is made from.
struct DemoSummary: Codable, Sendable {
    /// A written file with its pixel size.
    struct ImageFile: Codable, Sendable {
        var path: String
        var width: Int
        var height: Int
    }

    /// The large image and the two arrivals of `thumb.append(full)`.
    struct LargeImage: Codable, Sendable {
        var name: String
        var width: Int
        var height: Int
        var bytes: Int
        var arrivals: [Arrival]
    }

    /// Cache hits per level over all passes (pipeline metrics).
    struct CacheHits: Codable, Sendable {
        var memory: Int
        var disk: Int
    }

    /// Distinct images in the gallery.
    var images: Int
    /// Requests per pass (the gallery list repeats some images, as a feed does).
    var requestsPerPass: Int
    /// Failed requests over the whole run (0 on success).
    var failures: Int
    /// The embedded server's address.
    var server: String
    /// The gallery's encoded size in bytes.
    var galleryBytes: Int
    /// Images painted in this run, and images reused from the output folder.
    var generatedImages: Int
    var reusedImages: Int
    var generationSeconds: Double
    /// Bytes received from the server by all pipelines.
    var bytesDownloaded: Int
    /// Downloads started by all pipelines.
    var downloads: Int
    /// Requests that joined work in flight, over all passes.
    var coalescedRequests: Int
    var cacheHits: CacheHits
    /// `network` (first load), `memory` (same list again), `disk` (fresh pipeline, same disk cache).
    var passes: [PassReport]
    var largeImage: LargeImage?
    /// The whole run, generation included, in seconds.
    var wallTimeSeconds: Double
    /// The process's peak resident memory (`VmHWM`) in bytes.
    var peakMemoryBytes: Int?
    /// The peak resident memory while the pipelines ran (measured after resetting the peak once
    /// the gallery was generated), when the kernel allows the reset.
    var pipelinePeakMemoryBytes: Int?
    /// The peak resident memory up to the end of the gallery's generation, when the peak could
    /// be reset afterwards (else it is only part of ``peakMemoryBytes``).
    var generationPeakMemoryBytes: Int?
    var outputDirectory: String
    var contactSheet: ImageFile
    var html: String
    var thumbnails: [String]
    /// The disk cache's directory, or `nil` with `--no-disk-cache`.
    var diskCache: String?
    /// One line per failure.
    var errors: [String]

    /// The summary as pretty-printed JSON with sorted keys.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The summary for people.
    func text() -> String {
        var lines: [String] = []
        lines.append("")
        lines.append("pass      requests  network  memory  disk  downloads  coalesced  downloaded  time")
        for pass in passes {
            lines.append(
                pass.name.padded(10) + String(pass.requests).padded(10) + String(pass.loadedResponses).padded(9)
                    + String(pass.memoryResponses).padded(8) + String(pass.diskResponses).padded(6)
                    + String(pass.downloads).padded(11) + String(pass.coalescedRequests).padded(11)
                    + Format.bytes(pass.bytesDownloaded).padded(12) + Format.duration(pass.seconds))
        }
        if let large = largeImage {
            lines.append("")
            lines.append(
                "large image  \(large.name) (\(large.width)×\(large.height), \(Format.bytes(large.bytes))), thumb.append(full):"
            )
            for arrival in large.arrivals {
                lines.append(
                    "  " + arrival.stage.padded(11) + "\(arrival.width)×\(arrival.height)".padded(11)
                        + "after " + Format.duration(arrival.milliseconds / 1000).padded(9) + "from \(arrival.source)")
            }
        }
        lines.append("")
        lines.append(
            "images \(images) · requests \(requestsPerPass) a pass · downloaded \(Format.bytes(bytesDownloaded)) "
                + "in \(downloads) downloads · coalesced requests \(coalescedRequests)")
        lines.append("cache hits: memory \(cacheHits.memory), disk \(cacheHits.disk) · failures \(failures)")
        var memory = "wall time \(Format.duration(wallTimeSeconds))"
        memory += " (gallery \(generatedImages > 0 ? "generated" : "reused") in \(Format.duration(generationSeconds)))"
        if let peak = peakMemoryBytes { memory += " · peak memory \(Format.bytes(peak))" }
        if let pipeline = pipelinePeakMemoryBytes, let generation = generationPeakMemoryBytes {
            memory += " (pipelines \(Format.bytes(pipeline)), generation \(Format.bytes(generation)))"
        }
        lines.append(memory)
        lines.append("")
        lines.append("contact sheet  \(contactSheet.path) (\(contactSheet.width)×\(contactSheet.height))")
        lines.append("gallery        \(html) (+ \(thumbnails.count) thumbnails)")
        if !errors.isEmpty {
            lines.append("")
            lines.append("errors:")
            lines += errors.map { "  ✗ " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The string padded with spaces to `width` characters (never truncated).
    func padded(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
