import ArgumentParser
import Comet
import Foundation

/// `comet demo`: a gallery app in a terminal. Generates a gallery, serves it on 127.0.0.1, loads
/// it three times through the pipeline (network, memory cache, disk cache from a fresh pipeline),
/// opens the large image as thumbnail-then-full, and writes a contact sheet and an HTML page.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Serve a generated gallery on 127.0.0.1 and load it as thumbnails through the pipeline.",
        discussion: """
            Writes contact-sheet.png, index.html and thumbnails/ into the output folder. The generated \
            gallery is kept in OUT/gallery and reused by the next run; the disk cache lives in OUT/cache \
            and is emptied at the start of each run.
            """
    )

    /// The side of the square thumbnails, in pixels.
    static let thumbnailSize = 256

    @Option(help: "Number of distinct images in the gallery (at least 2).")
    var count = 40

    @Option(help: "Output folder.")
    var out = "comet-demo"

    @Flag(help: "Run without a disk cache (skips the disk-cache pass).")
    var noDiskCache = false

    @Flag(help: "Print a machine-readable JSON summary on standard output (progress goes to standard error).")
    var json = false

    @Flag(help: "No progress bars or terminal previews.")
    var quiet = false

    @Flag(help: "Do not draw thumbnails in the terminal (they are drawn only on truecolor terminals).")
    var noPreview = false

    func validate() throws {
        guard (2...1000).contains(count) else { throw ValidationError("--count must be between 2 and 1000.") }
    }

    func run() async throws {
        let session = try DemoSession(command: self)
        let (gallery, generationSeconds) = try makeGallery(session)
        let peakAfterGeneration = MemoryUsage.peakResidentBytes
        let canMeasurePipelinePeak = MemoryUsage.resetPeak()
        session.trace("gallery ready")

        let server = try await DemoServer.start(serving: gallery.assets)
        session.say("Serving the gallery at \(server.baseURL.absoluteString)/gallery/")
        let feed = DemoFeed(assets: gallery.assets, server: server)
        session.trace("server started")

        let dataCache = emptiedDiskCache(session)
        let passes = await runPasses(feed, dataCache: dataCache, session)
        let large = await openLargeImage(feed, on: passes.lastPipeline, session)
        await server.stop(timeout: 0.1)
        dataCache?.flush()
        session.trace("server stopped")

        var summary = makeSummary(
            gallery: gallery, generationSeconds: generationSeconds, feed: feed, server: server, passes: passes,
            large: large,
            dataCache: dataCache, session: session)
        let written = try DemoArtifacts(directory: session.output).write(
            assets: gallery.assets, thumbnails: passes.thumbnails,
            summaryLines: [
                "\(gallery.assets.count) images, \(Format.bytes(summary.galleryBytes)), loaded as \(Self.thumbnailSize)-pixel "
                    + "aspect-fill thumbnails by Comet",
                passes.reports.map { "\($0.name): \($0.requests) requests in \(Format.duration($0.seconds))" }
                    .joined(separator: " · "),
            ])
        session.trace("files written")
        summary.contactSheet = written.contactSheet
        summary.html = written.htmlPath
        summary.thumbnails = written.thumbnailPaths
        summary.wallTimeSeconds = session.wall.elapsed
        let pipelinePeak = canMeasurePipelinePeak ? MemoryUsage.peakResidentBytes : nil
        summary.pipelinePeakMemoryBytes = pipelinePeak
        summary.peakMemoryBytes = [peakAfterGeneration, pipelinePeak].compactMap { $0 }.max()
        summary.generationPeakMemoryBytes = canMeasurePipelinePeak ? peakAfterGeneration : nil

        Console.standardOutput.line(json ? try summary.json() : summary.text())
        if !summary.errors.isEmpty { throw ExitCode(1) }
    }

    /// The demo's thumbnail request for `url`: decoded at reduced size where the format allows,
    /// then resized to fill 256×256 and cropped.
    static func thumbnailRequest(_ url: URL) -> ImageRequest {
        ImageRequest(
            url: url,
            processors: [
                .resize(
                    size: Size(width: thumbnailSize, height: thumbnailSize),
                    contentMode: .aspectFill, crop: true)
            ],
            thumbnail: .init(width: thumbnailSize, height: thumbnailSize, contentMode: .aspectFill))
    }

    /// A pipeline with its own memory cache (so a fresh pipeline really starts cold) over `dataCache`.
    static func makePipeline(dataCache: DataCache?) -> ImagePipeline {
        ImagePipeline {
            $0.imageCache = ImageCache(costLimit: 512 << 20)
            $0.dataCache = dataCache
        }
    }
}
