import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ImagePipeline {
    /// The places where a pipeline asks your code what to do, set on
    /// ``Configuration/hooks``. Every hook is optional; an unset hook costs one `nil` check where
    /// it would be called (no allocation, no extra hop), and the pipeline then behaves as if the
    /// hook did not exist. Each hook receives the ``ImageRequest`` (its ``ImageRequest/userInfo``
    /// included), so per-request decisions can be carried on the request.
    ///
    /// **Why closures, not a delegate protocol.** In Swift 6 a delegate called from the
    /// pipeline's threads must be `Sendable`, which pushes every delegate into being a final
    /// class with its own locking, and a protocol with default implementations cannot tell the
    /// pipeline that a method was *not* implemented, so each default would still be a dynamic
    /// call on the hot path. `@Sendable` closures are checked by the compiler where they are
    /// written, need no object whose lifetime (weak or strong?) must be decided, can be set one
    /// at a time inside `ImagePipeline { $0.hooks.… = … }`, and an unset one is visibly `nil`.
    ///
    /// **Threading.** Hooks are called on the pipeline's threads (its graph or a worker, never
    /// while a lock is held): return quickly, and do not call back into the pipeline
    /// synchronously. ``taskEvent`` alone runs on ``Configuration/callbackQueue``, in order.
    public struct Hooks: Sendable {
        /// The loader of one request's bytes. Default `nil`: ``Configuration/dataLoader``.
        /// Called once per download (a download shared by coalesced requests asks for the request
        /// that started it).
        public var dataLoader: (@Sendable (ImageRequest) -> any DataLoading)?
        /// The disk cache of one request; return `nil` for no disk cache. Default `nil`:
        /// ``Configuration/dataCache`` for every request.
        public var dataCache: (@Sendable (ImageRequest) -> (any DataCaching)?)?
        /// The disk-cache key of a request's original data; return `nil` for the default (the
        /// request's ``ImageRequest/imageID``, with a digest of its headers when its
        /// `URLRequest` sets any). Encoded results are keyed by it plus what was done to the
        /// image (thumbnail, processors). Coalescing and the memory cache still use the default.
        /// Return different keys for requests whose bytes differ. Default `nil`.
        public var cacheKey: (@Sendable (ImageRequest) -> String?)?
        /// Called before a final image enters the memory cache: return the image to store
        /// (the same or another), or `nil` to store nothing. The caller still receives the
        /// decoded image. Default `nil` (store it).
        public var willCacheImage: (@Sendable (Image, ImageRequest) -> Image?)?
        /// Called before bytes enter the disk cache (original data or an encoded result):
        /// return the bytes to store, or `nil` to store nothing. Default `nil` (store them).
        public var willCacheData: (@Sendable (Data, ImageRequest) -> Data?)?
        /// Every task's lifecycle, in order for each task, on ``Configuration/callbackQueue``:
        /// see ``TaskEvent``. Default `nil`.
        public var taskEvent: (@Sendable (ImageTask, TaskEvent) -> Void)?
        /// Called on the worker that ran a stage (a final decode, or one processor on a final
        /// image) as it ends, with the request that started the work (work shared by coalesced
        /// requests is reported once) and a ``StageReport`` of its timing and outcome: for
        /// tracing spans or timings per stage. Default `nil` (nothing is timed).
        public var stageFinished: (@Sendable (ImageRequest, StageReport) -> Void)?

        /// No hooks.
        public init() {}
    }

    /// What happens to an ``ImageTask``, as ``Hooks/taskEvent`` reports it. For one task the
    /// events come in this order: `created`; `started` when the task enters the pipeline's
    /// graph (a memory-cache hit, or a task cancelled first, never starts); any number of
    /// `progress` and `preview`; `cancelled` when ``ImageTask/cancel()`` ended it; `finished`
    /// last, always, with the result the task delivered.
    public enum TaskEvent: Sendable {
        /// The task was made.
        case created
        /// The task entered the graph: its work is queued or running.
        case started
        /// Bytes received so far.
        case progress(ImageTask.Progress)
        /// A progressive preview.
        case preview(ImageResponse)
        /// The task was cancelled (``ImagePipeline/TaskEvent/finished(_:)`` follows with the cancellation error).
        case cancelled
        /// The task's result.
        case finished(Result<ImageResponse, ImagePipeline.Error>)
    }
}
