import ArgumentParser
import Comet
import Foundation

/// `comet fetch URL…`: loads images through the pipeline (http, https, file URLs or paths),
/// optionally makes thumbnails, and writes them as PNG, JPEG, WebP or AVIF files.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract:
            "Download images (http, https, file), optionally resize them, and save them as PNG, JPEG, WebP or AVIF.",
        discussion: """
            Each URL is loaded through one pipeline with a disk cache (see `comet cache`), so a second \
            fetch of the same URL does not download it again. A failed URL is reported and the batch \
            goes on; the exit code is 1 if any URL failed. Output files are named after the URL's last \
            path component (with -WxH when resized) and never overwrite a source or each other.
            """
    )

    /// The name of the tool's disk cache under the user's cache directory.
    static let cacheName = "com.comet.cli"

    @Argument(help: "Image URLs (http, https, file) or file paths.")
    var urls: [String]

    @Option(help: "Resize to WIDTHxHEIGHT pixels (or N for N×N), decoding at reduced size where possible.")
    var resize: ThumbnailSize?

    @Option(help: "How --resize fits: fill (cover and crop to exactly WxH) or fit (inside WxH).")
    var mode: FitMode = .fill

    @Option(
        help:
            "How --resize computes pixels: lanczos3 (sharp, as libvips) or area-average (faster, about a quarter softer)."
    )
    var filter: ResizeFilter = .lanczos3

    @Option(
        help:
            "Output format: png, jpeg, webp (lossy), webp-lossless or avif. Default: jpeg for opaque images, png for transparent ones."
    )
    var format: OutputFormat?

    @Option(help: "JPEG, WebP and AVIF quality, 1–100.")
    var quality = 85

    @Option(help: "Output folder (created if needed).")
    var out = "."

    @Option(help: "Downloads at once.")
    var concurrency = 6

    @Flag(help: "Do not read or write the disk cache.")
    var noDiskCache = false

    @Flag(help: "Print only errors.")
    var quiet = false

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be between 1 and 100.") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 64.") }
    }

    func run() async throws {
        let output = URL(fileURLWithPath: out).standardizedFileURL
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let dataCache = noDiskCache ? nil : try? DataCache(name: Self.cacheName)
        let pipeline = makePipeline(dataCache: dataCache)
        let items = FetchPlan(arguments: urls, resize: resize, outputDirectory: output).items
        let console = Console.standardOutput
        let bar = ProgressBar(title: "fetch", total: items.count, console: console, quiet: quiet || !console.isTerminal)
        let stopwatch = Stopwatch()
        let tally = await fetchAll(items, with: pipeline, console: console, bar: bar)
        bar.finish()
        dataCache?.flush()  // staged writes reach the disk before the process exits
        if !quiet {
            let metrics = pipeline.metrics
            console.line(
                "\(tally.succeeded) saved, \(tally.failures) failed · downloaded \(Format.bytes(metrics.bytesLoaded)) · "
                    + "disk cache hits \(metrics.diskCacheHits) · \(Format.duration(stopwatch.elapsed))")
        }
        if tally.failures > 0 { throw ExitCode(1) }
    }

    /// The pipeline of one run: the tool's disk cache, a 256 MiB memory cache, `--concurrency` downloads.
    private func makePipeline(dataCache: DataCache?) -> ImagePipeline {
        ImagePipeline {
            $0.dataCache = dataCache
            $0.imageCache = ImageCache(costLimit: 256 << 20)
            $0.dataLoadingConcurrencyLimit = concurrency
        }
    }

    /// Fetches every item, at most `--concurrency` at once, reporting each as it ends.
    private func fetchAll(
        _ items: [FetchPlan.Item], with pipeline: ImagePipeline, console: Console,
        bar: ProgressBar
    ) async -> (succeeded: Int, failures: Int) {
        let fetcher = Fetcher(resize: resize, mode: mode, filter: filter.filter, format: format, quality: quality)
        var tally = (succeeded: 0, failures: 0)
        await withTaskGroup(of: (FetchPlan.Item, Result<String, any Error>).self) { group in
            var pending = items[...]
            func startNext() {
                guard let item = pending.popFirst() else { return }
                group.addTask { (item, await Result { try await fetcher.fetch(item, with: pipeline) }) }
            }
            for _ in 0..<concurrency { startNext() }
            for await (item, result) in group {
                switch result {
                case .success(let line):
                    tally.succeeded += 1
                    report(success: line, console: console, bar: bar)
                case .failure(let error):
                    tally.failures += 1
                    report(failure: "✗ " + Self.describe(error, of: item), console: console, bar: bar)
                }
                bar.setBytes(pipeline.metrics.bytesLoaded)
                bar.advance(detail: item.argument)
                startNext()
            }
        }
        return tally
    }

    private func report(success line: String, console: Console, bar: ProgressBar) {
        guard !quiet else { return }
        if console.isTerminal { bar.message("✓ " + line) } else { console.line("✓ " + line) }
    }

    /// One sentence on why `item` failed, naming its URL once: a pipeline error names the URL
    /// itself; any other error is prefixed with the argument.
    static func describe(_ error: any Error, of item: FetchPlan.Item) -> String {
        if let error = error as? ImagePipeline.Error { return error.description }
        return "\(item.argument): \(error)"
    }

    private func report(failure text: String, console: Console, bar: ProgressBar) {
        if console.isTerminal && !quiet { bar.message(text) } else { Console.standardError.line(text) }
    }

}

/// The per-item work of `comet fetch`, with the options it needs.
struct Fetcher: Sendable {
    var resize: ThumbnailSize?
    var mode: FitMode
    var filter: ImageProcessors.Resize.Filter = .lanczos3
    var format: OutputFormat?
    var quality: Int

    /// Loads, encodes and writes one item; returns the line describing the result.
    func fetch(_ item: FetchPlan.Item, with pipeline: ImagePipeline) async throws -> String {
        guard let url = item.url else { throw FetchError.invalidURL(item.argument) }
        var processors: [any ImageProcessing] = []
        var thumbnail: ImageRequest.ThumbnailOptions?
        if let resize {
            let contentMode: ImageProcessors.Resize.ContentMode = mode == .fill ? .aspectFill : .aspectFit
            processors = [
                .resize(
                    size: Size(width: resize.width, height: resize.height), contentMode: contentMode,
                    crop: mode == .fill, filter: filter)
            ]
            // A fill is cropped at fractional source coordinates by its one resize, which the
            // pipeline already decodes at a reduced size (`Resize.decodingDownsampling`); a
            // thumbnail step before it would resample twice and crop at whole pixels.
            if mode == .fit {
                thumbnail = .init(width: resize.width, height: resize.height, contentMode: contentMode, filter: filter)
            }
        }
        let response = try await pipeline.imageTask(
            with: ImageRequest(
                url: url, processors: processors,
                thumbnail: thumbnail)
        ).response
        let image = response.image
        let chosen = format ?? (image.isOpaque ? .jpeg : .png)
        let data = try chosen.encoder(quality: Double(quality) / 100).encode(image)
        let file = item.outputBase.appendingPathExtension(chosen.fileExtension)
        try data.write(to: file, options: .atomic)
        let source = response.cacheType.map { " from \($0 == .memory ? "memory" : "disk cache")" } ?? ""
        return "\(item.argument) → \(file.path) (\(image.width)×\(image.height), \(Format.bytes(data.count))\(source))"
    }
}

/// A `WIDTHxHEIGHT` (or `N`) argument.
struct ThumbnailSize: ExpressibleByArgument, Sendable {
    var width: Int
    var height: Int

    init?(argument: String) {
        let parts = argument.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" }).map { Int($0) }
        switch parts.count {
        case 1: guard let side = parts[0], side > 0 else { return nil }; width = side; height = side
        case 2: guard let w = parts[0], let h = parts[1], w > 0, h > 0 else { return nil }; width = w; height = h
        default: return nil
        }
    }
}

/// `--mode`: how a resize fits the target.
enum FitMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    case fill, fit
}

/// `--filter`: the resize filter.
enum ResizeFilter: String, ExpressibleByArgument, CaseIterable, Sendable {
    case lanczos3
    case areaAverage = "area-average"

    var filter: ImageProcessors.Resize.Filter {
        switch self {
        case .lanczos3: .lanczos3
        case .areaAverage: .areaAverage
        }
    }
}

/// `--format`: the output encoding.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case png, jpeg, webp
    case webpLossless = "webp-lossless"
    case avif

    /// The encoder at `quality` (0...1; PNG and lossless WebP ignore it).
    func encoder(quality: Double) -> any ImageEncoding {
        switch self {
        case .png: ImageEncoders.PNG()
        case .jpeg: ImageEncoders.JPEG(quality: quality)
        case .webp: ImageEncoders.WebP(quality: quality)
        case .webpLossless: ImageEncoders.WebP(isLossless: true)
        case .avif: ImageEncoders.AVIF(quality: quality)
        }
    }

    /// The format's facts in Imaging's registry.
    var format: ImageFormat {
        switch self {
        case .png: .png
        case .jpeg: .jpeg
        case .webp, .webpLossless: .webp
        case .avif: .avif
        }
    }

    /// The output file's extension (the registry's, e.g. `jpg`).
    var fileExtension: String { format.preferredFileExtension }
}

/// Why an item of `comet fetch` could not even start.
enum FetchError: Error, CustomStringConvertible {
    case invalidURL(String)

    var description: String {
        switch self {
        case .invalidURL(let argument): "not a URL or file path Comet can load: \(argument) (use http, https or file)"
        }
    }
}
