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
        let wall = Stopwatch()
        let console = json ? Console.standardError : Console.standardOutput
        let output = URL(fileURLWithPath: out).standardizedFileURL
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        func say(_ text: String) { if !quiet { console.line(text) } }
        let tracing = ProcessInfo.processInfo.environment["COMET_DEMO_TRACE"] != nil
        func trace(_ step: String) {
            if tracing {
                Console.standardError.line("trace: \(step) at \(Format.duration(wall.elapsed)), "
                    + "rss \(Format.bytes(MemoryUsage.residentBytes ?? 0)), peak \(Format.bytes(MemoryUsage.peakResidentBytes ?? 0))")
            }
        }

        // 1. The gallery.
        say("Generating \(count) photo-like images (one 6000×4000 JPEG, one progressive JPEG)…")
        let generation = Stopwatch()
        let gallery = try GalleryGenerator(count: count).generate(cacheDirectory: output.appendingPathComponent("gallery"))
        let generationSeconds = generation.elapsed
        let assets = gallery.assets
        let galleryBytes = assets.reduce(0) { $0 + $1.data.count }
        say("  \(gallery.reused == assets.count ? "reused" : "made") \(assets.count) images, \(Format.bytes(galleryBytes)), "
            + "in \(Format.duration(generationSeconds))")
        let peakAfterGeneration = MemoryUsage.peakResidentBytes
        let canMeasurePipelinePeak = MemoryUsage.resetPeak()

        trace("gallery ready")
        // 2. The server and the request list: a feed repeats some images (every fourth appears twice).
        let server = try await DemoServer.start(serving: assets)
        say("Serving the gallery at \(server.baseURL.absoluteString)/gallery/")
        var requests: [ImageRequest] = []
        var labels: [String] = []
        var assetIndexOfRequest: [Int] = []
        for (index, asset) in assets.enumerated() {
            let request = Self.thumbnailRequest(server.url(for: asset.name))
            let copies = index % 4 == 3 ? 2 : 1
            for _ in 0..<copies {
                requests.append(request)
                labels.append(asset.name)
                assetIndexOfRequest.append(index)
            }
        }

        trace("server started")
        // 3. The disk cache, emptied so the first pass really downloads.
        let cacheDirectory = output.appendingPathComponent("cache", isDirectory: true)
        var dataCache: DataCache?
        if !noDiskCache {
            let cache = DataCache(path: cacheDirectory)
            cache.removeAll()
            cache.flush()
            dataCache = cache
        }

        // 4. Pass one (network) and two (memory) on one pipeline; three (disk) on a fresh one.
        var passes: [PassReport] = []
        var errors: [String] = []
        let first = Self.makePipeline(dataCache: dataCache)
        let network = await runPass("network", requests, labels, on: first, console: console)
        passes.append(network.report)
        errors += network.errors
        var thumbnails = [Image?](repeating: nil, count: assets.count)
        for (requestIndex, image) in network.images { thumbnails[assetIndexOfRequest[requestIndex]] = image }
        if !quiet && !json && !noPreview && console.supportsTrueColor {
            console.write((try? TerminalPreview.render(Array(thumbnails.compactMap { $0 }.prefix(24)),
                                                       columns: console.columns)) ?? "")
        }

        trace("network pass done")
        let memory = await runPass("memory", requests, labels, on: first, console: console)
        passes.append(memory.report)
        errors += memory.errors

        trace("memory pass done")
        var lastPipeline = first
        if let dataCache {
            // Pipeline one is done: free its memory cache, as an app would on leaving the screen.
            first.configuration.imageCache?.removeAll()
            dataCache.flush()
            let fresh = Self.makePipeline(dataCache: DataCache(path: cacheDirectory))
            let disk = await runPass("disk", requests, labels, on: fresh, console: console)
            passes.append(disk.report)
            errors += disk.errors
            lastPipeline = fresh
        }

        trace("disk pass done")
        // 5. The large image: thumbnail first, then the full image.
        var largeImage: DemoSummary.LargeImage?
        let large = assets[0]
        do {
            let step = LargeImageStep(thumbnail: requests[0], full: ImageRequest(url: server.url(for: large.name)))
            let arrivals = try await step.run(on: lastPipeline)
            largeImage = DemoSummary.LargeImage(name: large.name, width: large.width, height: large.height,
                                                bytes: large.data.count, arrivals: arrivals)
            for arrival in arrivals {
                say("\(large.name): \(arrival.stage) \(arrival.width)×\(arrival.height) from \(arrival.source) "
                    + "after \(Format.duration(arrival.milliseconds / 1000))")
            }
        } catch {
            errors.append("\(large.name) (full size): \(error)")
        }
        trace("large image done")
        await server.stop(timeout: 0.1)
        dataCache?.flush()

        trace("server stopped")
        // 6. Files and summary.
        let metrics = [first.metrics, lastPipeline === first ? nil : lastPipeline.metrics].compactMap { $0 }
        var summary = DemoSummary(
            images: assets.count, requestsPerPass: requests.count, failures: errors.count,
            server: server.baseURL.absoluteString, galleryBytes: galleryBytes,
            generatedImages: assets.count - gallery.reused, reusedImages: gallery.reused,
            generationSeconds: generationSeconds,
            bytesDownloaded: metrics.reduce(0) { $0 + $1.bytesLoaded },
            downloads: metrics.reduce(0) { $0 + $1.downloadsStarted },
            coalescedRequests: metrics.reduce(0) { $0 + $1.coalescedRequests },
            cacheHits: .init(memory: metrics.reduce(0) { $0 + $1.memoryCacheHits },
                             disk: metrics.reduce(0) { $0 + $1.diskCacheHits }),
            passes: passes, largeImage: largeImage, wallTimeSeconds: 0, peakMemoryBytes: nil,
            pipelinePeakMemoryBytes: nil, generationPeakMemoryBytes: nil, outputDirectory: output.path,
            contactSheet: .init(path: "", width: 0, height: 0), html: "", thumbnails: [],
            diskCache: dataCache == nil ? nil : cacheDirectory.path, errors: errors)
        let written = try DemoArtifacts(directory: output).write(
            assets: assets, thumbnails: thumbnails,
            summaryLines: ["\(assets.count) images, \(Format.bytes(galleryBytes)), loaded as \(Self.thumbnailSize)-pixel "
                + "aspect-fill thumbnails by Comet", passes.map { "\($0.name): \($0.requests) requests in \(Format.duration($0.seconds))" }
                .joined(separator: " · ")])
        trace("files written")
        summary.contactSheet = written.contactSheet
        summary.html = written.htmlPath
        summary.thumbnails = written.thumbnailPaths
        summary.wallTimeSeconds = wall.elapsed
        let pipelinePeak = canMeasurePipelinePeak ? MemoryUsage.peakResidentBytes : nil
        summary.pipelinePeakMemoryBytes = pipelinePeak
        summary.peakMemoryBytes = [peakAfterGeneration, pipelinePeak].compactMap { $0 }.max()
        summary.generationPeakMemoryBytes = canMeasurePipelinePeak ? peakAfterGeneration : nil

        if json {
            Console.standardOutput.line(try summary.json())
        } else {
            Console.standardOutput.line(summary.text())
        }
        if !errors.isEmpty { throw ExitCode(1) }
    }

    /// The demo's thumbnail request for `url`: decoded at reduced size where the format allows,
    /// then resized to fill 256×256 and cropped.
    static func thumbnailRequest(_ url: URL) -> ImageRequest {
        ImageRequest(url: url,
                     processors: [.resize(size: Size(width: thumbnailSize, height: thumbnailSize),
                                          contentMode: .aspectFill, crop: true)],
                     thumbnail: .init(width: thumbnailSize, height: thumbnailSize, contentMode: .aspectFill))
    }

    /// A pipeline with its own memory cache (so a fresh pipeline really starts cold) over `dataCache`.
    static func makePipeline(dataCache: DataCache?) -> ImagePipeline {
        ImagePipeline {
            $0.imageCache = ImageCache(costLimit: 512 << 20)
            $0.dataCache = dataCache
        }
    }

    private func runPass(_ name: String, _ requests: [ImageRequest], _ labels: [String], on pipeline: ImagePipeline,
                         console: Console) async -> ThumbnailPass.Outcome {
        let bar = ProgressBar(title: name, total: requests.count, console: console, quiet: quiet)
        let outcome = await ThumbnailPass(name: name, requests: requests, labels: labels).run(on: pipeline, bar: bar)
        let report = outcome.report
        var parts = ["\(report.requests) requests", "\(report.downloads) downloads"]
        if report.coalescedRequests > 0 { parts.append("\(report.coalescedRequests) coalesced") }
        if report.memoryResponses > 0 { parts.append("\(report.memoryResponses) from memory") }
        if report.diskResponses > 0 { parts.append("\(report.diskResponses) from disk") }
        if report.failures > 0 { parts.append("\(report.failures) failed") }
        parts.append(Format.duration(report.seconds))
        bar.finish(parts.joined(separator: ", "))
        return outcome
    }
}
