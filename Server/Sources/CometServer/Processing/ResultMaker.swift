import Comet
import Foundation
import Logging
import Tracing

/// Makes the service's results: fetches sources under the source policy, decodes and
/// processes them in Comet's pipeline, encodes them, and gives each its ETag, within the
/// processing time limit.
///
/// What each kind of request makes is in its extension (``makeThumbnail(_:)``,
/// ``makeInfo(_:)``); this type holds what they share: the pipelines, the fetcher, the
/// deadline and the output checks. The pipelines coalesce equal work across requests.
/// Thread-safe; one per ``ServiceResponder``.
public final class ResultMaker: Sendable {
    /// The configuration it was made with.
    public let configuration: ServerConfiguration
    /// The pipeline that fetches, decodes and processes
    /// (``ServerConfiguration/pipelineConfiguration(fetcher:tracer:logger:)``).
    public let pipeline: ImagePipeline
    /// The pipeline that decodes sources with their EXIF orientation left unapplied (`ar:0`),
    /// else as ``pipeline``: the orientation is the decode's, which a request cannot change.
    public let storedOrientationPipeline: ImagePipeline
    /// The pipelines' data loader: sources under the policy and limits.
    public let fetcher: SourceFetcher
    /// The tracer of requests' spans.
    public let tracer: any Tracer
    /// Whether ``tracer`` records spans (it is not a `NoOpTracer`).
    let traces: Bool
    let metrics: ServerMetrics

    /// Creates the maker and its pipelines, tracing with `tracer` and logging with `logger`.
    public init(configuration: ServerConfiguration, metrics: ServerMetrics, tracer: any Tracer, logger: Logger) {
        self.configuration = configuration
        self.metrics = metrics
        self.tracer = tracer
        traces = !(tracer is NoOpTracer)
        let fetcher = SourceFetcher(policy: configuration.sourcePolicy, limits: configuration.fetchLimits)
        self.fetcher = fetcher
        var pipelineConfiguration = configuration.pipelineConfiguration(
            fetcher: fetcher, tracer: tracer, logger: logger)
        pipeline = ImagePipeline(configuration: pipelineConfiguration)
        pipelineConfiguration.decodingOptions.appliesOrientation = false
        // Its images are keyed as the other pipeline's: a shared memory cache would mix them up.
        pipelineConfiguration.imageCache = nil
        storedOrientationPipeline = ImagePipeline(configuration: pipelineConfiguration)
    }

    /// Runs `work` within the processing time limit (``ServerConfiguration/processingTimeout``),
    /// giving it the deadline; past it, cancels it and throws a 504 that says what took too
    /// long (`doing`, as in "making the image").
    func withinDeadline<Result: Sendable>(
        doing: String, _ work: @escaping @Sendable (ContinuousClock.Instant) async throws -> Result
    ) async throws -> Result {
        let timeout = configuration.processingTimeout
        let deadline = ContinuousClock.now + .seconds(timeout)
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask { try await work(deadline) }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw ServiceError.timeout("\(doing) took longer than \(Int(timeout)) s")
            }
            return result
        }
    }

    /// The bytes of `request` as the pipeline fetches them (a cancelled fetch throws
    /// `CancellationError`).
    func data(for request: ImageRequest) async throws -> Data {
        do {
            return try await pipeline.data(for: request).0
        } catch let error as ImagePipeline.Error where error.isCancellation {
            throw CancellationError()
        }
    }

    /// The stored result of `bytes` made from `source` under the answer key `key`, checked
    /// against the output limit, with its ETag: made from the key, `format` (when the key does
    /// not fix it) and the source's validator (its `ETag` or `Last-Modified`, else the SHA-256
    /// of `sourceBytes`, else of `bytes`).
    func finish(
        _ bytes: [UInt8], contentType: String, key: String, format: String?, source: URL, sourceBytes: Data? = nil
    ) throws -> StoredResult {
        guard bytes.count <= configuration.maximumOutputBytes else {
            throw ServiceError.tooLarge("the result is larger than \(configuration.maximumOutputBytes) bytes")
        }
        metrics.recordResultMade()
        let validator =
            fetcher.validators.validator(for: source.absoluteString)
            ?? "sha256:" + (sourceBytes.map { SHA256State.hexDigest(of: $0) } ?? SHA256State.hexDigest(of: bytes))
        let etag = format.map { ETag.make(key, $0, validator) } ?? ETag.make(key, validator)
        return StoredResult(bytes: bytes, contentType: contentType, etag: etag)
    }

    /// Runs CPU-heavy work (encoding, frames, `/info`'s decode) on a Dispatch worker, so Swift
    /// concurrency's few threads stay free for requests.
    static func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// The pipeline's name for the bytes fetched from `source` ahead of their decode: apart from
    /// the URL's own, so that it never stands for a fetch of it.
    static func fetchedID(of source: URL) -> String { "fetched:" + source.absoluteString }
}
