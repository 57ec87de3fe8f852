import Comet
import Foundation
import Logging
import Locking
import Tracing

/// The service's request path, without HTTP: checks a thumbnail URL (grammar, signature,
/// options, format), then answers from the result store or makes the result (fetch under the
/// source policy, decode and process in Comet's pipeline, encode) within the load shedder's
/// bounds and the processing time limit.
///
/// The pipeline coalesces equal work across clients; the store shares finished results (and,
/// for a shared store, their making) across instances. Thread-safe; one per server.
public final class ThumbnailResponder: Sendable {
    /// The configuration it was made with.
    public let configuration: ServerConfiguration
    /// The pipeline that fetches, decodes and processes.
    public let pipeline: ImagePipeline
    /// The pipeline that decodes sources with their EXIF orientation left unapplied (`ar:0`),
    /// else as ``pipeline``: the orientation is the decode's, which a request cannot change.
    public let storedOrientationPipeline: ImagePipeline
    /// The pipeline's data loader: sources under the policy and limits.
    public let fetcher: SourceFetcher
    /// Where results are kept.
    public let store: any SharedResultStoring
    /// The bound on concurrent and queued work.
    public let shedder: LoadShedder
    /// The metrics.
    public let metrics: ServerMetrics
    /// The tracer of requests' spans (``ServerConfiguration/tracer``, else the bootstrapped one).
    public let tracer: any Tracer
    private let logger: Logger
    /// Whether ``tracer`` records spans (it is not a `NoOpTracer`).
    private let traces: Bool
    /// `Cache-Control` of every image answer.
    private let cacheControl: String

    /// Creates the service and its pipeline.
    public init(
        configuration: ServerConfiguration, store: any SharedResultStoring = LocalResultStore(),
        metrics: ServerMetrics = ServerMetrics(), logger: Logger = Logger(label: "comet.server")
    ) {
        self.configuration = configuration
        self.store = store
        self.metrics = metrics
        self.logger = logger
        let tracer = configuration.tracer ?? InstrumentationSystem.tracer
        self.tracer = tracer
        let traces = !(tracer is NoOpTracer)
        self.traces = traces
        cacheControl = "public, max-age=\(configuration.cacheMaxAge)"
        let fetcher = SourceFetcher(policy: configuration.sourcePolicy, limits: configuration.fetchLimits)
        self.fetcher = fetcher
        var pipelineConfiguration = ImagePipeline.Configuration(dataLoader: fetcher)
        pipelineConfiguration.imageCache =
            configuration.imageCacheBytes > 0 ? ImageCache(costLimit: configuration.imageCacheBytes) : nil
        pipelineConfiguration.dataCache = nil
        pipelineConfiguration.isResumableDataEnabled = false
        pipelineConfiguration.maximumResponseDataSize = configuration.fetchLimits.maximumBytes
        pipelineConfiguration.decodingOptions.limits.maxSourcePixelCount = configuration.maximumSourcePixels
        pipelineConfiguration.decodingOptions.limits.maxFrameCount = configuration.maximumAnimationFrames
        pipelineConfiguration.decodingOptions.limits.maxAnimationPixelCount = configuration.maximumAnimationPixels
        pipelineConfiguration.dataLoadingConcurrencyLimit = max(6, configuration.maximumConcurrentWork)
        pipelineConfiguration.logger = logger
        // Each download's `fetch` span is a child of the request that started it.
        pipelineConfiguration.hooks.dataLoader = { request in
            guard let context = request.userInfo[.serviceContext] as? ServiceContext else { return fetcher }
            return TracedSourceLoader(fetcher: fetcher, tracer: tracer, context: context)
        }
        // Decodes and processor runs become `decode` and `process` spans of the same request.
        if traces {
            let spans = StageSpanRecorder(tracer: tracer)
            pipelineConfiguration.hooks.stageFinished = { request, report in spans.record(report, for: request) }
        }
        self.pipeline = ImagePipeline(configuration: pipelineConfiguration)
        pipelineConfiguration.decodingOptions.appliesOrientation = false
        // Its images are keyed as the other pipeline's: a shared memory cache would mix them up.
        pipelineConfiguration.imageCache = nil
        storedOrientationPipeline = ImagePipeline(configuration: pipelineConfiguration)
        self.shedder = LoadShedder(
            maximumConcurrent: configuration.maximumConcurrentWork,
            maximumQueued: configuration.maximumQueuedWork,
            retryAfter: configuration.retryAfterSeconds,
            onChange: { [metrics] active, queued in metrics.recordLoad(active: active, queued: queued) })
    }

    /// Answers a service URL's `path` (imgproxy's grammar, ``ThumbnailPath``), with the
    /// request's `Accept` and `If-None-Match` headers. Throws the ``ServiceError`` to answer with.
    public func answer(path: String, accept: String?, ifNoneMatch: String?) async throws(ServiceError)
        -> ThumbnailAnswer
    {
        let request = try ThumbnailRequest(path: path, accept: accept, configuration: configuration)
        if let answer = storedAnswer(for: request, ifNoneMatch: ifNoneMatch) { return answer }
        return try await answer(request, ifNoneMatch: ifNoneMatch)
    }

    /// The answer to `request` from a result the store holds at hand
    /// (the store's `storedResult(for:)`), without suspending; `nil` when it holds
    /// none (then ``answer(_:ifNoneMatch:)`` answers).
    public func storedAnswer(for request: ThumbnailRequest, ifNoneMatch: String?) -> ThumbnailAnswer? {
        guard let result = store.storedResult(for: request.storeKey) else { return nil }
        if traces {
            let span = tracer.startAnySpan("store")
            span.attributes["comet.cache"] = "hit"
            span.end()
        }
        return answer(result, for: request, isStored: true, ifNoneMatch: ifNoneMatch)
    }

    /// Answers a checked request from the result store, which makes the result (within the
    /// load shedder's bounds and the processing time limit) when it holds none.
    public func answer(_ request: ThumbnailRequest, ifNoneMatch: String?) async throws(ServiceError) -> ThumbnailAnswer
    {
        let canonical = request.path.canonicalSource
        guard let source = URL(string: canonical) else { throw .badURL("the source URL \(canonical) cannot be parsed") }
        let item = WorkItem(
            key: request.key, source: source, plan: request.plan, choice: request.choice,
            askedFormat: request.variesOnAccept ? nil : request.choice.exactFormat,
            framePlan: request.framePlan, limits: request.sourceLimits)
        let result: StoredResult
        let made = Locked(false)
        do {
            result = try await tracer.withAnySpan("store") { span in
                defer { span.attributes["comet.cache"] = made.withLock { $0 } ? "miss" : "hit" }
                return try await store.result(for: request.storeKey, ttl: configuration.resultTTL) { [self] in
                    made.withLock { $0 = true }
                    return try await shedder.run { try await make(item) }
                }
            }
        } catch {
            throw ServiceError.from(error)
        }
        return answer(result, for: request, isStored: !made.withLock { $0 }, ifNoneMatch: ifNoneMatch)
    }

    private func answer(
        _ result: StoredResult, for request: ThumbnailRequest, isStored: Bool, ifNoneMatch: String?
    ) -> ThumbnailAnswer {
        var cacheControl = cacheControl
        if let expires = request.options.expires {
            // A cache must not keep serving the URL past its end (expires is after now: checked).
            let remaining = max(0, expires - Int(Date().timeIntervalSince1970))
            if remaining < configuration.cacheMaxAge { cacheControl = "public, max-age=\(remaining)" }
        }
        let headers = ThumbnailAnswer.CachingHeaders(
            cacheControl: cacheControl, variesOnAccept: request.variesOnAccept, isStored: isStored,
            keepsColorProfile: request.keepsColorProfile,
            contentDisposition: request.contentDisposition(contentType: result.contentType))
        if let ifNoneMatch, Self.matches(ifNoneMatch, etag: result.etag) {
            return .notModified(etag: result.etag, headers: headers)
        }
        return .image(result, headers: headers)
    }

    /// What one result is made from.
    private struct WorkItem: Sendable {
        var key: String
        var source: URL
        var plan: ThumbnailPlan
        var choice: FormatChoice
        /// The format the URL asks for (`f` or the extension), if any: a skipped source format is
        /// sent as it is only when the URL asks for none or for that one, as in imgproxy.
        var askedFormat: OutputFormat?
        /// What each frame of an animated source gets, when the result keeps the animation.
        var framePlan: ThumbnailPlan?
        /// What the source may be.
        var limits: SourceLimits
    }

    /// Fetches, processes and encodes within the processing time limit.
    private func make(_ item: WorkItem) async throws -> StoredResult {
        let timeout = configuration.processingTimeout
        // The `mb` search stops before it: an encode cannot be cancelled once it has started.
        let deadline = ContinuousClock.now + .seconds(timeout)
        return try await withThrowingTaskGroup(of: StoredResult?.self) { group in
            group.addTask { try await self.makeWithoutDeadline(item, deadline: deadline) }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw ServiceError.timeout("making the image took longer than \(Int(timeout)) s")
            }
            return result
        }
    }

    /// What the `image` span makes: a result already (a skipped format), an animation's frames,
    /// or the still image, with the format each is encoded in (`nil`: JPEG when the image is
    /// opaque, PNG when it has transparency).
    private enum Made: Sendable {
        case result(StoredResult)
        case frames(AnimatedImage, OutputFormat)
        case still(Image, OutputFormat?)
    }

    private func makeWithoutDeadline(_ item: WorkItem, deadline: ContinuousClock.Instant) async throws -> StoredResult {
        let made: Made
        do {
            // One `image` span: the pipeline's (and an early fetch's) spans are its children.
            made = try await tracer.withAnySpan("image") { span in
                span.attributes["server.address"] = item.source.host
                let context = tracer is NoOpTracer ? nil : span.context
                return try await makeImage(item, context: context) { name, value in span.attributes[name] = value }
            }
        } catch let error as ImagePipeline.Error where error.isCancellation {
            throw CancellationError()
        }
        let encoding = item.plan.encoding
        switch made {
        case .result(let result):
            return result
        case .frames(let animation, let format):
            let bytes = try await tracer.withAnySpan("encode") { span in
                span.attributes["comet.format"] = format.rawValue
                span.attributes["comet.frames"] = animation.frames.count
                return try await Self.offCooperativePool {
                    try encoding.encode(animation, as: format, deadline: deadline)
                }
            }
            return try finish(bytes, contentType: format.contentType, formatName: format.rawValue, item: item)
        case .still(let image, let format):
            let format = format ?? (image.isOpaque ? .jpeg : .png)
            let bytes = try await tracer.withAnySpan("encode") { span in
                span.attributes["comet.format"] = format.rawValue
                let bytes = try await Self.offCooperativePool {
                    try encoding.encode(image, as: format, deadline: deadline)
                }
                span.attributes["comet.encoded.size"] = bytes.count
                return bytes
            }
            return try finish(bytes, contentType: format.contentType, formatName: format.rawValue, item: item)
        }
    }

    /// Fetches (under `context`, the `image` span's) and decodes and processes the source, or
    /// answers from its bytes when their format is skipped; `record` gets the span attributes
    /// (the image's size, an animation's frame count).
    private func makeImage(
        _ item: WorkItem, context: ServiceContext?, record: (String, Int) -> Void
    ) async throws -> Made {
        var request = item.plan.imageRequest(source: item.source)
        var fetched: (data: Data, id: String)?
        if !item.plan.skippedSourceFormats.isEmpty || item.plan.enforcesThumbnail || item.choice == .source
            || item.limits.checksBeforeDecoding
        {
            // The bytes are fetched first, to check them against the request's own limits, tell
            // their format or find their thumbnail; the image is then decoded from them rather
            // than fetched again.
            var fetch = ImageRequest(url: item.source)
            if let context { fetch.userInfo[.serviceContext] = context }
            var (data, _) = try await pipeline.data(for: fetch)
            if item.limits.checksBeforeDecoding { try item.limits.check(data) }
            if let type = AssetType(data), item.plan.skippedSourceFormats.contains(type),
                item.askedFormat.map({ OutputFormat(name: type.rawValue) == $0 }) ?? true
            {
                return .result(
                    try finish(
                        [UInt8](data), contentType: Self.contentType(of: type), formatName: type.rawValue, item: item))
            }
            var id = Self.fetchedID(of: item.source)
            if item.plan.enforcesThumbnail, let thumbnail = Self.embeddedThumbnail(in: data, covering: item.plan) {
                data = thumbnail
                // Not the same image as the full decode's, for the pipeline's caches.
                id += "#exif-thumbnail"
            }
            request = item.plan.imageRequest(id: id, data: data)
            fetched = (data, id)
        }
        let format: OutputFormat?
        switch item.choice {
        case .exactly(let asked):
            format = asked
        case .source:
            let data = fetched?.data ?? Data()
            let isAnimated = item.framePlan != nil && AnimationHeader(data)?.isAnimated == true
            format = FormatChoice.format(forSource: AssetType(data), isAnimated: isAnimated)
        }
        if let framePlan = item.framePlan, let format, format == .webp || format == .gif {
            switch try await loadKeepingAnimation(
                source: item.source, fetched: fetched, plan: item.plan, framePlan: framePlan, limits: item.limits,
                context: context, record: record)
            {
            case .still(let stillRequest):
                request = stillRequest
            case .frames(let animation):
                return .frames(animation, format)
            }
        }
        if let context { request.userInfo[.serviceContext] = context }
        let pipeline = item.plan.appliesOrientation ? pipeline : storedOrientationPipeline
        let image = try await pipeline.image(for: request)
        record("comet.image.width", image.width)
        record("comet.image.height", image.height)
        return .still(image, format)
    }

    /// The stored result of `bytes`, checked against the output limit, with its ETag.
    private func finish(_ bytes: [UInt8], contentType: String, formatName: String, item: WorkItem) throws
        -> StoredResult
    {
        guard bytes.count <= configuration.maximumOutputBytes else {
            throw ServiceError.tooLarge("the result is larger than \(configuration.maximumOutputBytes) bytes")
        }
        metrics.recordResultMade()
        let validator =
            fetcher.validators.validator(for: item.source.absoluteString) ?? "sha256:"
            + SHA256State.hexDigest(of: bytes)
        let etag = "\"" + SHA256State.hexDigest(of: "\(item.key)\n\(formatName)\n\(validator)").prefix(32) + "\""
        return StoredResult(bytes: bytes, contentType: contentType, etag: etag)
    }

    /// The EXIF thumbnail of a JPEG `data` when it is at least the plan's resize on each side
    /// given (`eth`).
    private static func embeddedThumbnail(in data: Data, covering plan: ThumbnailPlan) -> Data? {
        guard let target = plan.requestedSize, let thumbnail = EXIFThumbnail.jpeg(in: [UInt8](data)),
            thumbnail.width >= target.width, thumbnail.height >= target.height
        else { return nil }
        return Data(thumbnail.bytes)
    }

    /// The media type of a source format sent as it is (`skp`).
    private static func contentType(of type: AssetType) -> String {
        switch type {
        case .jpegXL: "image/jxl"
        default: "image/\(type.rawValue)"
        }
    }

    /// Whether an `If-None-Match` list names `etag` (weak comparison, as RFC 9110 asks for it).
    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        let bare = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        return ifNoneMatch.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == bare
        }
    }

    /// The pipeline's name for the bytes fetched from `source` ahead of their decode: apart from
    /// the URL's own, so that it never stands for a fetch of it.
    static func fetchedID(of source: URL) -> String { "fetched:" + source.absoluteString }

    /// Runs CPU-heavy work (encoding) on a Dispatch worker, so Swift concurrency's few threads
    /// stay free for requests.
    static func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try work() }) }
        }
    }
}
