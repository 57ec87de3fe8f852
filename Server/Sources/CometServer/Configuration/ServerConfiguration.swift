import Tracing
import Foundation

/// Everything the service is told at start-up. Every property has a production default;
/// `comet-server --help` shows the command-line names.
///
/// Thread-safe (a value).
public struct ServerConfiguration: Sendable {
    /// The address to listen on. Default `127.0.0.1`.
    public var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one. Default 8080.
    public var port = 8080
    /// Checks signatures; `nil` serves unsigned URLs (local development only: anyone can then
    /// make the service fetch and process anything the source policy allows). Default `nil`.
    public var signer: URLSigner?
    /// Which sources may be fetched. Default: any public host.
    public var sourcePolicy = SourcePolicy()
    /// Source size, redirect and time limits.
    public var fetchLimits = SourceFetchLimits()
    /// The most pixels a source image may declare. Default 100 megapixels.
    public var maximumSourcePixels = 100_000_000
    /// The most frames an animated GIF or WebP source may have for its result to stay animated
    /// (WebP or GIF output); more is a `422`, found from the file's structure before any frame
    /// is decoded. 1 keeps no animation: every result is the first frame. Default 256.
    public var maximumAnimationFrames = 256
    /// The most pixels all frames of an animation may have together (frames × canvas width ×
    /// height), checked as ``maximumAnimationFrames`` is: every frame is held decoded at once.
    /// Default 2^25 (33.5 megapixels, 128 MiB of frames).
    public var maximumAnimationPixels = 1 << 25
    /// Whether URLs may give imgproxy's security options (`msr`, `msfs`, `maf`, `mafr`, `mrd`),
    /// each lowering one of these limits for one request (never raising it); when `false`, a URL
    /// that gives one is a `403`, as in imgproxy (`IMGPROXY_ALLOW_SECURITY_OPTIONS`). Default `false`.
    public var allowsSecurityOptions = false
    /// The largest output width or height a URL may ask for. Default 4096.
    public var maximumOutputDimension = 4096
    /// The largest encoded result, in bytes. Default 16 MiB.
    public var maximumOutputBytes = 16 << 20
    /// Seconds one result may take from fetch to encoded bytes (the whole request's work).
    /// Default 30.
    public var processingTimeout: Double = 30
    /// How many results are made at once. Default: twice the processor count.
    public var maximumConcurrentWork = 2 * ProcessInfo.processInfo.activeProcessorCount
    /// How many more wait for a turn before requests are refused with 503. Default 64.
    public var maximumQueuedWork = 64
    /// The `Retry-After` seconds of a 503. Default 1.
    public var retryAfterSeconds = 1
    /// `Cache-Control: public, max-age=N` on results. Default 86 400 (a day).
    public var cacheMaxAge = 86_400
    /// How long a result is kept by the result store. Default one hour.
    public var resultTTL: Duration = .seconds(3600)
    /// Whether `Accept: image/avif` gets AVIF when no format is asked for (AVIF encodes about
    /// ten times slower than WebP). Default `true`.
    public var negotiatesAVIF = true
    /// The pipeline's memory cache of processed images, in bytes (shared by the formats of one
    /// thumbnail); 0 for none. Default 0: the result store already serves every result asked
    /// for again, and cached bitmaps cost more resident memory than their bytes (a 16 MiB
    /// cache raised the cold loadtest's peak by 44 MiB).
    public var imageCacheBytes = 0
    /// Serve the demo gallery at `/gallery/…` and its page at `/`. Default `false`.
    public var demo = false
    /// Header-read and idle timeouts, and the most connections open at once.
    public var connectionLimits = ConnectionLimits()
    /// The presets URLs may name with `pr` (`--preset`, `--only-presets`). Default: none.
    public var presets = ThumbnailPresets.none
    /// The image `wm` draws over results (`--watermark PATH`). Default `nil`: a URL with `wm`
    /// is refused (400).
    public var watermark: WatermarkImage?
    /// The tracer of requests' spans. Default `nil`: the process's bootstrapped one
    /// (`InstrumentationSystem.tracer`, a no-op unless the process bootstraps a tracer).
    public var tracer: (any Tracer)?

    /// Creates the default configuration.
    public init() {}
}
