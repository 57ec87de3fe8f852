import Comet
import Foundation

/// What every step of a demo run shares: where it writes and how it reports.
struct DemoSession {
    let wall = Stopwatch()
    let console: Console
    let output: URL
    let isQuiet: Bool
    let isTracing: Bool

    init(command: DemoCommand) throws {
        console = command.json ? Console.standardError : Console.standardOutput
        output = URL(fileURLWithPath: command.out).standardizedFileURL
        isQuiet = command.quiet
        isTracing = ProcessInfo.processInfo.environment["COMET_DEMO_TRACE"] != nil
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    }

    func say(_ text: String) { if !isQuiet { console.line(text) } }

    /// With COMET_DEMO_TRACE set: the time and memory at the end of `step`, on standard error.
    func trace(_ step: String) {
        guard isTracing else { return }
        Console.standardError.line(
            "trace: \(step) at \(Format.duration(wall.elapsed)), "
                + "rss \(Format.bytes(MemoryUsage.residentBytes ?? 0)), peak \(Format.bytes(MemoryUsage.peakResidentBytes ?? 0))"
        )
    }
}

/// The requests of one pass: a feed repeats some images (every fourth appears twice).
struct DemoFeed {
    let assets: [GalleryAsset]
    let largeFullRequest: ImageRequest
    private(set) var requests: [ImageRequest] = []
    private(set) var labels: [String] = []
    private(set) var assetIndexOfRequest: [Int] = []

    init(assets: [GalleryAsset], server: DemoServer) {
        self.assets = assets
        largeFullRequest = ImageRequest(url: server.url(for: assets[0].name))
        for (index, asset) in assets.enumerated() {
            let request = DemoCommand.thumbnailRequest(server.url(for: asset.name))
            for _ in 0..<(index % 4 == 3 ? 2 : 1) {
                requests.append(request)
                labels.append(asset.name)
                assetIndexOfRequest.append(index)
            }
        }
    }
}

/// What the three passes produced.
struct DemoPasses {
    var reports: [PassReport] = []
    var errors: [String] = []
    var thumbnails: [Image?]
    var firstPipeline: ImagePipeline
    var lastPipeline: ImagePipeline
}

extension DemoCommand {
    /// Step 1: the gallery (generated, or reused from OUT/gallery).
    func makeGallery(_ session: DemoSession) throws -> (gallery: GalleryGenerator.Output, seconds: Double) {
        session.say("Generating \(count) photo-like images (one 6000×4000 JPEG, one progressive JPEG)…")
        let generation = Stopwatch()
        let gallery = try GalleryGenerator(count: count).generate(
            cacheDirectory: session.output.appendingPathComponent("gallery"))
        let bytes = gallery.assets.reduce(0) { $0 + $1.data.count }
        session.say(
            "  \(gallery.reused == gallery.assets.count ? "reused" : "made") \(gallery.assets.count) images, \(Format.bytes(bytes)), "
                + "in \(Format.duration(generation.elapsed))")
        return (gallery, generation.elapsed)
    }

    /// Step 2: the disk cache, emptied so the first pass really downloads (`nil` with --no-disk-cache).
    func emptiedDiskCache(_ session: DemoSession) -> DataCache? {
        guard !noDiskCache else { return nil }
        let cache = DataCache(path: session.output.appendingPathComponent("cache", isDirectory: true))
        cache.removeAll()
        cache.flush()
        return cache
    }

    /// Step 3: pass one (network) and two (memory) on one pipeline; three (disk) on a fresh one.
    func runPasses(_ feed: DemoFeed, dataCache: DataCache?, _ session: DemoSession) async -> DemoPasses {
        let first = Self.makePipeline(dataCache: dataCache)
        var passes = DemoPasses(
            thumbnails: [Image?](repeating: nil, count: feed.assets.count), firstPipeline: first, lastPipeline: first)
        let network = await runPass("network", feed, on: first, console: session.console)
        passes.reports.append(network.report)
        passes.errors += network.errors
        for (requestIndex, image) in network.images {
            passes.thumbnails[feed.assetIndexOfRequest[requestIndex]] = image
        }
        if !quiet && !json && !noPreview && session.console.supportsTrueColor {
            session.console.write(
                (try? TerminalPreview.render(
                    Array(passes.thumbnails.compactMap { $0 }.prefix(24)),
                    columns: session.console.columns)) ?? "")
        }
        session.trace("network pass done")

        let memory = await runPass("memory", feed, on: first, console: session.console)
        passes.reports.append(memory.report)
        passes.errors += memory.errors
        session.trace("memory pass done")

        if let dataCache {
            // Pipeline one is done: free its memory cache, as an app would on leaving the screen.
            first.configuration.imageCache?.removeAll()
            dataCache.flush()
            let fresh = Self.makePipeline(dataCache: DataCache(path: dataCache.path))
            let disk = await runPass("disk", feed, on: fresh, console: session.console)
            passes.reports.append(disk.report)
            passes.errors += disk.errors
            passes.lastPipeline = fresh
        }
        session.trace("disk pass done")
        return passes
    }

    /// Step 4: the large image, thumbnail first, then the full image.
    func openLargeImage(_ feed: DemoFeed, on pipeline: ImagePipeline, _ session: DemoSession) async -> Result<
        DemoSummary.LargeImage, DemoLargeImageError
    > {
        let large = feed.assets[0]
        defer { session.trace("large image done") }
        do {
            let arrivals = try await LargeImageStep(thumbnail: feed.requests[0], full: feed.largeFullRequest).run(
                on: pipeline)
            for arrival in arrivals {
                session.say(
                    "\(large.name): \(arrival.stage) \(arrival.width)×\(arrival.height) from \(arrival.source) "
                        + "after \(Format.duration(arrival.milliseconds / 1000))")
            }
            return .success(
                DemoSummary.LargeImage(
                    name: large.name, width: large.width, height: large.height,
                    bytes: large.data.count, arrivals: arrivals))
        } catch {
            return .failure(DemoLargeImageError(description: "\(large.name) (full size): \(error)"))
        }
    }

    /// Step 5: the summary of the run (files are filled in once written).
    func makeSummary(
        gallery: GalleryGenerator.Output, generationSeconds: Double, feed: DemoFeed, server: DemoServer,
        passes: DemoPasses,
        large: Result<DemoSummary.LargeImage, DemoLargeImageError>, dataCache: DataCache?,
        session: DemoSession
    ) -> DemoSummary {
        var errors = passes.errors
        if case .failure(let error) = large { errors.append(error.description) }
        let metrics = [
            passes.firstPipeline.metrics,
            passes.lastPipeline === passes.firstPipeline ? nil : passes.lastPipeline.metrics,
        ]
        .compactMap { $0 }
        return DemoSummary(
            images: gallery.assets.count, requestsPerPass: feed.requests.count, failures: errors.count,
            server: server.baseURL.absoluteString, galleryBytes: gallery.assets.reduce(0) { $0 + $1.data.count },
            generatedImages: gallery.assets.count - gallery.reused, reusedImages: gallery.reused,
            generationSeconds: generationSeconds,
            bytesDownloaded: metrics.reduce(0) { $0 + $1.bytesLoaded },
            downloads: metrics.reduce(0) { $0 + $1.downloadsStarted },
            coalescedRequests: metrics.reduce(0) { $0 + $1.coalescedRequests },
            cacheHits: .init(
                memory: metrics.reduce(0) { $0 + $1.memoryCacheHits },
                disk: metrics.reduce(0) { $0 + $1.diskCacheHits }),
            passes: passes.reports, largeImage: try? large.get(), wallTimeSeconds: 0, peakMemoryBytes: nil,
            pipelinePeakMemoryBytes: nil, generationPeakMemoryBytes: nil, outputDirectory: session.output.path,
            contactSheet: .init(path: "", width: 0, height: 0), html: "", thumbnails: [],
            diskCache: dataCache?.path.path, errors: errors)
    }

    /// One pass over the feed, with its progress bar and its one-line report.
    private func runPass(_ name: String, _ feed: DemoFeed, on pipeline: ImagePipeline, console: Console) async
        -> ThumbnailPass.Outcome
    {
        let bar = ProgressBar(title: name, total: feed.requests.count, console: console, quiet: quiet)
        let outcome = await ThumbnailPass(name: name, requests: feed.requests, labels: feed.labels).run(
            on: pipeline, bar: bar)
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

/// Why the large image could not be opened.
struct DemoLargeImageError: Error, CustomStringConvertible {
    let description: String
}
