import Dispatch
import Foundation
import Logging

extension ImagePipeline {
    /// What disk-cache entries a pipeline writes (Nuke's policies).
    public enum DataCachePolicy: Sendable, Hashable {
        /// Original data for requests without processors or thumbnail; encoded results for
        /// requests with them.
        case automatic
        /// Only the original data (processed images are made again from it). The default.
        case storeOriginalData
        /// Only encoded final images (JPEG for opaque images, PNG otherwise), never the original.
        case storeEncodedImages
        /// The original data, and encoded results for requests with processors or a thumbnail.
        case storeAll
    }

    /// Everything a pipeline is built from. Set it up once; a pipeline's configuration is fixed.
    public struct Configuration: Sendable {
        /// Loads the bytes. Default: a ``DataLoader`` (URLSession, file and data URLs).
        public var dataLoader: any DataLoading
        /// The disk cache; `nil` (the default) for none. See ``DataCache``.
        public var dataCache: (any DataCaching)?
        /// The memory cache of decoded images. Default: ``ImageCache/shared``.
        public var imageCache: (any ImageCaching)?
        /// Equal requests share one download, decode and processor run. Default `true`.
        public var isTaskCoalescingEnabled = true
        /// How fast downloads start: a token bucket per host or for the whole pipeline (see
        /// ``RateLimit``). Default `nil`, no limit: the download queue's concurrency limit already
        /// bounds the load on a server, and a fixed rate would hold a batch of small images below
        /// what the machine does. ``RateLimit/nukeDefault`` is Nuke's, for a scrolling UI.
        public var rateLimit: RateLimit?
        /// Whether ``rateLimit`` is set. Setting `true` sets Nuke's limiter
        /// (``RateLimit/nukeDefault``) when none was set; `false` removes the limit.
        public var isRateLimiterEnabled: Bool {
            get { rateLimit != nil }
            set { rateLimit = newValue ? (rateLimit ?? .nukeDefault) : nil }
        }
        /// How failed downloads are retried (transient failures only: 5xx, 429, timeouts, lost
        /// connections). Default ``RetryPolicy/disabled``: a failure fails the load at once. A
        /// request may set its own (``ImageRequest/retryPolicy``).
        public var retryPolicy = RetryPolicy.disabled
        /// Whether an HTTP download that fails or is cancelled part way is continued by the next
        /// load of its URL (`Range` + `If-Range`, when the server sent `Accept-Ranges: bytes` and
        /// a strong `ETag` or a `Last-Modified`), instead of starting again from zero. Default
        /// `true`.
        public var isResumableDataEnabled = true
        /// The most bytes of partial downloads a pipeline keeps for resuming (the oldest go
        /// first). Default 32 MiB.
        public var resumableDataByteLimit = 32 << 20
        /// Progressive JPEGs and interlaced PNGs produce previews while they load. Default `false`.
        public var isProgressiveDecodingEnabled = false
        /// What the disk cache stores. Default ``DataCachePolicy/storeOriginalData``.
        public var dataCachePolicy = DataCachePolicy.storeOriginalData
        /// Downloads running at once. Default 6.
        public var dataLoadingConcurrencyLimit = 6
        /// Decodes running at once. Default: the number of cores.
        public var decodingConcurrencyLimit = ProcessInfo.processInfo.activeProcessorCount
        /// Processor runs at once. Default: the number of cores.
        public var processingConcurrencyLimit = ProcessInfo.processInfo.activeProcessorCount
        /// The largest response accepted, in bytes (checked as bytes arrive, in addition to the
        /// loader's own limit). Default 100 MiB; `nil` for none.
        public var maximumResponseDataSize: Int? = 100 << 20
        /// When a request's first processor is a resize to an exact size (aspect fill with crop,
        /// or stretch) that shrinks the image, and the request has no ``ImageRequest/thumbnail``,
        /// JPEGs are decoded at the smallest DCT scale (1/2,
        /// 1/4 or 1/8) whose result still covers the resize's target, and the resize makes the
        /// exact size from that: a 1024×768 photo made into a 256² thumbnail decodes at 512×384,
        /// about a third of the work. The result has the same size as from a full decode, and
        /// differs by a few levels per channel (see `ImageProcessors.Resize.decodingDownsampling`). Such a decode is not shared with a full-size decode of the
        /// same data (the download still is). Default `true`.
        public var isResizeDownsamplingEnabled = true
        /// Decoder limits and strictness (thumbnails add their downsampling). Default: the
        /// decoder defaults (see `ImageDecodingLimits`).
        public var decodingOptions = ImageDecodingOptions()
        /// The decoders, chosen by each file's format (final images, progressive previews and
        /// encoded images read back from the disk cache). Default `ImageDecoderRegistry.default`
        /// (its formats: Imaging's Formats article); register your own formats on a copy.
        public var decoders = ImageDecoderRegistry.default
        /// Chooses the encoder of a result the disk cache stores encoded (see
        /// ``DataCachePolicy``). Called in the pipeline's graph: return quickly. Default: JPEG at
        /// quality 0.9 for opaque images, PNG (keeps alpha) for the others. For smaller entries,
        /// `{ _ in ImageEncoders.WebP(quality: 0.8) }` (lossy WebP keeps alpha too).
        public var makeImageEncoder: @Sendable (ImageEncodingContext) -> any ImageEncoding = { context in
            context.image.isOpaque ? ImageEncoders.JPEG(quality: 0.9) : ImageEncoders.PNG()
        }
        /// How many decoded images may be out at once that nobody has finished with: decoding,
        /// waiting for a processor, or on their way to the caller (the memory cache's images do
        /// not count). A decode starts only below it, so decoding slows when processing or
        /// delivery lags instead of piling up bitmaps. `nil` (the default): twice
        /// ``decodingConcurrencyLimit``.
        public var decodedImageBacklogLimit: Int?
        /// How many downloaded images may wait for a decoder before new downloads wait too: a
        /// download starts only while fewer are queued for decoding, so when decoding is the
        /// slower stage, encoded bytes do not pile up in memory. Downloads already running
        /// finish, so up to this plus ``dataLoadingConcurrencyLimit`` may wait. `nil` (the
        /// default): twice ``decodingConcurrencyLimit``.
        public var undecodedDataBacklogLimit: Int?
        /// Where completion handlers and progress callbacks run. Default: a serial queue of the
        /// pipeline's own, so callbacks work in a command-line tool or server with no main run
        /// loop. Use `.main` in an app that drains the main queue.
        public var callbackQueue = DispatchQueue(label: "com.comet.pipeline.callbacks", qos: .userInitiated)
        /// Where your code customises the pipeline per request: loader, disk cache, cache key,
        /// what is cached, task events. Default: none (see ``Hooks``).
        public var hooks = Hooks()
        /// Where pipeline events are logged (debug and trace levels).
        public var logger = Logger(label: "com.comet.pipeline")

        /// The default configuration: a ``DataLoader``, the shared memory cache, no disk cache.
        public init(dataLoader: any DataLoading = DataLoader()) {
            self.dataLoader = dataLoader
            self.imageCache = ImageCache.shared
        }

        /// The default configuration plus a disk cache named `name` (under the user's cache
        /// directory); falls back to no disk cache if the directory cannot be created.
        public static func withDataCache(name: String = "com.comet.DataCache") -> Configuration {
            var configuration = Configuration()
            configuration.dataCache = try? DataCache(name: name)
            return configuration
        }
    }
}
