import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads an image: memory cache, else data (``DataLoading``) → decode (``DataDecoding``) →
/// process (the request's processor, see ``makeProcessor``) → memory cache.
///
/// - A memory-cache hit (when the request allows reads) returns an already fulfilled promise.
/// - A decoder that returns `nil` fails the load with ``Error/decodingFailed``, a processor that
///   returns `nil` with ``Error/processingFailed``; data-loading errors pass through unchanged.
/// - The image is stored in ``cache`` (when the request allows writes) before the promise is
///   fulfilled.
/// - Cancellation: no callback is guaranteed. Cancelled before its work starts, the promise
///   stays pending; cancelled during the HTTP load, it is rejected with `URLError.cancelled`.
///
/// Decoding and processing run on ``Schedulers`` (background queues by default). Thread-safe.
// @unchecked: its public dependencies are Nuke 4's non-Sendable protocols, immutable and used
// from any thread as Nuke 4 used them; the rest is `let` or behind a LockedValue.
public final class Loader: Loading, @unchecked Sendable {
    /// Loads the data.
    public let loader: DataLoading
    /// Decodes the data.
    public let decoder: DataDecoding
    /// The memory cache, or `nil` for none.
    public let cache: Caching?
    private let schedulers: Schedulers
    private let processorFactory = LockedValue<(Image, Request) -> AnyProcessor?>({ $1.processor })

    /// Picks the processor for a decoded image. Default: the request's ``Request/processor``.
    /// Called on the processing scheduler.
    public var makeProcessor: (Image, Request) -> AnyProcessor? {
        get { processorFactory.current }
        set { processorFactory.current = newValue }
    }

    /// Where decoding and processing run.
    public struct Schedulers {
        /// Runs decoding. Default: a serial background queue.
        public var decoding: Scheduler = DispatchQueueScheduler(
            queue: DispatchQueue(label: "com.comet.NukeCompat.Decoding"))
        /// Runs processing. Default: a serial background queue.
        public var processing: Scheduler = DispatchQueueScheduler(
            queue: DispatchQueue(label: "com.comet.NukeCompat.Processing"))
        /// Creates the default schedulers.
        public init() {}
    }

    /// Why a load failed after its data arrived.
    public enum Error: Swift.Error {
        /// The decoder returned `nil` (bad data, an unsupported format, or an HTTP error status).
        case decodingFailed
        /// The processor returned `nil`.
        case processingFailed
    }

    /// Creates a loader from its parts.
    public init(loader: DataLoading, decoder: DataDecoding, cache: Caching?, schedulers: Schedulers = Schedulers()) {
        self.loader = loader
        self.decoder = decoder
        self.cache = cache
        self.schedulers = schedulers
    }

    /// The memory-cached image when there is one (and reads are allowed), else ``promise(with:token:)``.
    public func loadImage(with request: Request, token: CancellationToken? = nil) -> Promise<Image> {
        if request.memoryCacheOptions.readAllowed, let image = cache?[request] {
            return Promise(value: image)
        }
        return promise(with: request, token: token)
    }

    /// Loads, decodes and processes without reading the memory cache (still writing it when
    /// the request allows).
    public func promise(with request: Request, token: CancellationToken? = nil) -> Promise<Image> {
        let request = Unchecked(request)
        return loader.loadData(with: request.value.urlRequest, token: token).then(on: .global()) {
            data, response -> Promise<Image> in
            Promise { fulfill, reject in
                let resolve = Unchecked((fulfill, reject))
                self.schedulers.decoding.execute(token: token) {
                    guard let image = self.decoder.decode(data: data, response: response) else {
                        resolve.value.1(Error.decodingFailed)
                        return
                    }
                    self.schedulers.processing.execute(token: token) {
                        self.process(image, request.value, fulfill: resolve.value.0, reject: resolve.value.1)
                    }
                }
            }
        }
    }

    private func process(_ image: Image, _ request: Request, fulfill: (Image) -> Void, reject: (Swift.Error) -> Void) {
        var result = image
        if let processor = makeProcessor(image, request) {
            guard let processed = processor.process(image) else {
                reject(Error.processingFailed)
                return
            }
            result = processed
        }
        if request.memoryCacheOptions.writeAllowed {
            cache?[request] = result
        }
        fulfill(result)
    }

    private static let sharedLoader = LockedValue(
        Unchecked<Loading>(
            Deduplicator(loader: Loader(loader: DataLoader(), decoder: DataDecoder(), cache: Cache.shared))))

    /// The loader behind `Manager.shared` and `Preheater()`: a ``Deduplicator`` over a
    /// ``Loader`` with ``DataLoader``, ``DataDecoder`` and `Cache.shared`. Settable; thread-safe.
    public static var shared: Loading {
        get { sharedLoader.current.value }
        set { sharedLoader.current = Unchecked(newValue) }
    }
}
