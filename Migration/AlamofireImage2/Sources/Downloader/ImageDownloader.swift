import class Comet.DataCache
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads images with a limit on concurrent downloads, a FIFO or LIFO queue, one download per
/// URL however many callers ask, filters, an image cache and per-caller cancellation: the
/// `ImageDownloader` of AlamofireImage 2, on Comet's `DataLoader` and processors.
///
/// - Downloads for the same URL string share one request; each caller has its own receipt,
///   filter and completion.
/// - Filters run on a background queue; completions are always called on the main queue
///   (a Linux program must run it: `dispatchMain()` or a RunLoop).
/// - Requests are validated (status 200..<300) and decoded with
///   ``Request/imageResponseSerializer(imageScale:inflateResponseImage:)``.
///
/// Thread-safe.
public final class ImageDownloader: @unchecked Sendable {
    // Mutable state (`handlers`, `queued`, `activeCount`, `storedCredential`, `weakDelegate`)
    // sits behind `lock`, an NSLock. No callback (completion, filter, cache, delegate) is called
    // while it is held.

    /// Called on the main queue with each caller's result.
    public typealias CompletionHandler = @MainActor (Response<Image, NSError>) -> Void
    /// Called on the progress queue as bytes arrive: bytes in the chunk, bytes so far, bytes
    /// expected (-1 when unknown).
    public typealias ProgressHandler =
        @Sendable (
            _ bytesRead: Int64, _ totalBytesRead: Int64,
            _ totalExpectedBytesToRead: Int64
        ) -> Void

    // AlamofireImage 2's case names (`.FIFO`, `.LIFO`), kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The order in which queued downloads start.
    public enum DownloadPrioritization: Sendable {
        /// First queued, first started.
        case FIFO
        /// Last queued, first started.
        case LIFO
    }

    /// Where downloaded (and filtered) images are stored and looked up; `nil` for none.
    public let imageCache: ImageRequestCache?
    /// The queue order for downloads waiting for a free slot.
    public let downloadPrioritization: DownloadPrioritization
    /// How many downloads run at once (default 4); more wait in the queue.
    public let maximumActiveDownloads: Int

    /// The shared downloader (default settings, an ``AutoPurgingImageCache``).
    public static let defaultInstance = ImageDownloader()

    /// The manager whose session configuration the downloads use.
    public let sessionManager: Manager

    private let session: RequestSession
    private let lock = NSLock()
    private var handlers: [String: ResponseHandler] = [:]
    private var queued: [Request] = []
    private var activeCount = 0
    private var storedCredential: URLCredential?
    private weak var weakDelegate: ImageDownloaderDelegate?

    /// The settings ``init(configuration:downloadPrioritization:maximumActiveDownloads:imageCache:)``
    /// uses by default: a 60-second request timeout, the protocol cache policy and
    /// ``defaultURLCache()``.
    public class func defaultURLSessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.requestCachePolicy = .useProtocolCachePolicy
        configuration.timeoutIntervalForRequest = 60
        configuration.urlCache = defaultURLCache()
        return configuration
    }

    /// AlamofireImage's URL cache: 20 MB in memory, 150 MB on disk, in
    /// `com.alamofire.imagedownloader` under the user's cache directory (`~/.cache`). The disk
    /// part is an HTTP cache on Comet's `DataCache` (`HTTPCachingDataLoader`): responses are
    /// kept, served while fresh and revalidated when stale as their caching headers say. The
    /// memory part has no counterpart (the ``imageCache`` keeps images in memory). The path is
    /// absolute because FoundationNetworking's `URLCache` resolves a relative one in the
    /// program's working directory.
    public class func defaultURLCache() -> URLCache {
        let directory = DataCache.userCachesDirectory.appendingPathComponent(defaultCacheName, isDirectory: true)
        return URLCache(memoryCapacity: 20 * 1024 * 1024, diskCapacity: 150 * 1024 * 1024, diskPath: directory.path)
    }

    /// The folder of ``defaultURLCache()`` under the user's cache directory.
    static let defaultCacheName = "com.alamofire.imagedownloader"

    /// A downloader with its own ``Manager`` for `configuration` (timeouts, additional headers,
    /// and the `urlCache`'s disk capacity and path: an HTTP disk cache unless `diskCapacity` is
    /// 0 or there is no cache), `downloadPrioritization` (default FIFO), `maximumActiveDownloads`
    /// (default 4, at least 1) and `imageCache` (default a new ``AutoPurgingImageCache``).
    public convenience init(
        configuration: URLSessionConfiguration = ImageDownloader.defaultURLSessionConfiguration(),
        downloadPrioritization: DownloadPrioritization = .FIFO,
        maximumActiveDownloads: Int = 4,
        imageCache: ImageRequestCache? = AutoPurgingImageCache()
    ) {
        self.init(
            sessionManager: Manager(configuration: configuration, defaultCacheName: Self.defaultCacheName),
            downloadPrioritization: downloadPrioritization, maximumActiveDownloads: maximumActiveDownloads,
            imageCache: imageCache)
    }

    /// A downloader whose requests go through `sessionManager` (its configuration, disk cache
    /// and credentials handling), with `downloadPrioritization` (default FIFO),
    /// `maximumActiveDownloads` (default 4, at least 1) and `imageCache` (default a new
    /// ``AutoPurgingImageCache``). The downloader starts its requests itself, whatever the
    /// manager's `startRequestsImmediately`.
    public init(
        sessionManager: Manager,
        downloadPrioritization: DownloadPrioritization = .FIFO,
        maximumActiveDownloads: Int = 4,
        imageCache: ImageRequestCache? = AutoPurgingImageCache()
    ) {
        precondition(
            maximumActiveDownloads >= 1, "maximumActiveDownloads must be at least 1 (got \(maximumActiveDownloads))")
        self.sessionManager = sessionManager
        self.session = sessionManager.requestSession
        self.downloadPrioritization = downloadPrioritization
        self.maximumActiveDownloads = maximumActiveDownloads
        self.imageCache = imageCache
    }

    // MARK: Authentication

    /// The credential attached to every new download (unless the ``delegate`` gives one).
    public var credential: URLCredential? { lock.withLock { storedCredential } }

    /// Asked for a per-request credential when a download is created (held weakly).
    public var delegate: ImageDownloaderDelegate? {
        get { lock.withLock { weakDelegate } }
        set { lock.withLock { weakDelegate = newValue } }
    }

    /// Uses `user` and `password` for HTTP Basic/Digest challenges of later downloads.
    public func addAuthentication(
        user: String, password: String,
        persistence: URLCredential.Persistence = .forSession
    ) {
        addAuthentication(usingCredential: URLCredential(user: user, password: password, persistence: persistence))
    }

    /// Uses `credential` for authentication challenges of later downloads.
    public func addAuthentication(usingCredential credential: URLCredential) {
        lock.withLock { storedCredential = credential }
    }

    // MARK: Downloading

    // AlamofireImage 2's argument label, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Downloads the image of `URLRequest`, filters it and calls `completion` on the main queue.
    ///
    /// 1. If a download for the same URL string is queued or running, this caller joins it and
    ///    the receipt holds that same request (its progress handler stays the first caller's).
    ///    A request that sets headers, a body or another method joins only a download of an
    ///    equal request (see `imageKey`).
    /// 2. Else, if the request's cache policy allows cache reads (`.useProtocolCachePolicy`,
    ///    `.returnCacheDataElseLoad`, `.returnCacheDataDontLoad`) and the ``imageCache`` has the
    ///    image for the request and the filter's identifier, `completion` is called later on the
    ///    main queue and the method returns `nil`.
    /// 3. Else a request starts, or waits in the queue when ``maximumActiveDownloads`` are running.
    ///
    /// - Returns: the receipt to cancel this caller with, or `nil` when the cache answered.
    @discardableResult
    public func downloadImage(
        URLRequest convertible: URLRequestConvertible,
        receiptID: String = UUID().uuidString,
        filter: ImageFilter? = nil,
        progress: ProgressHandler? = nil,
        progressQueue: DispatchQueue = .main,
        completion: CompletionHandler?
    ) -> RequestReceipt? {
        let urlRequest = convertible.URLRequest
        let key = urlRequest.imageKey
        let operation = ResponseHandler.Operation(receiptID: receiptID, filter: filter, completion: completion)
        if let request = join(key, operation) {
            return RequestReceipt(request: request, receiptID: receiptID)
        }
        if Self.cachePolicyAllowsCacheReads(urlRequest.cachePolicy),
            let image = imageCache?.imageForRequest(urlRequest, withAdditionalIdentifier: filter?.identifier)
        {
            let response = Response<Image, NSError>(
                request: urlRequest, response: nil, data: nil, result: .Success(image))
            Self.complete(completion, with: response)
            return nil
        }
        let delegateCredential = delegate?.authenticationCredentialForURLRequest(urlRequest)
        let newRequest = session.makeRequest(urlRequest)
        if let progress {
            newRequest.progress { bytesRead, totalBytesRead, totalExpected in
                progressQueue.async { progress(bytesRead, totalBytesRead, totalExpected) }
            }
        }
        newRequest.validate()
        let (request, start) = lock.withLock { () -> (Request, Bool) in
            // Another caller may have created the download while the cache was checked.
            if let handler = handlers[key] {
                handler.operations.append(operation)
                return (handler.request, false)
            }
            if let credential = delegateCredential ?? storedCredential {
                newRequest.authenticate(usingCredential: credential)
            }
            let handler = ResponseHandler(request: newRequest, operation: operation)
            handlers[key] = handler
            if activeCount < maximumActiveDownloads {
                activeCount += 1
                handler.isActive = true
                return (newRequest, true)
            }
            switch downloadPrioritization {
            case .FIFO: queued.append(newRequest)
            case .LIFO: queued.insert(newRequest, at: 0)
            }
            return (newRequest, false)
        }
        if request === newRequest {
            // Strong on purpose: a downloader with downloads in flight stays alive until they end
            // (its session would otherwise cancel them), even if the caller let it go.
            newRequest.whenFinished { outcome in self.finished(newRequest, key: key, outcome: outcome) }
            if start { newRequest.resume() }
        }
        return RequestReceipt(request: request, receiptID: receiptID)
    }

    // AlamofireImage 2's argument label, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Downloads each of `URLRequests` as ``downloadImage(URLRequest:receiptID:filter:progress:progressQueue:completion:)``
    /// would, with a new receipt ID each; returns the receipts of those not answered by the cache.
    @discardableResult
    public func downloadImages(
        URLRequests: [URLRequestConvertible],
        filter: ImageFilter? = nil,
        progress: ProgressHandler? = nil,
        progressQueue: DispatchQueue = .main,
        completion: CompletionHandler? = nil
    ) -> [RequestReceipt] {
        URLRequests.compactMap {
            downloadImage(
                URLRequest: $0, filter: filter, progress: progress, progressQueue: progressQueue, completion: completion
            )
        }
    }

    /// Cancels one caller's download.
    ///
    /// The receipt's completion is called at once (on the main queue) with `NSURLErrorCancelled`
    /// (-999, reason "ImageDownloader cancelled URL request: URL"), the request, and no response
    /// or data. Other callers of the same download are unaffected. If the download is still
    /// queued and no caller remains, its request is cancelled and leaves the queue; a running
    /// download always continues (finishing uncached if no caller remains). Unknown, finished
    /// or already-cancelled receipts are ignored.
    public func cancelRequestForRequestReceipt(_ requestReceipt: RequestReceipt) {
        guard let urlRequest = requestReceipt.request.request else { return }
        let key = urlRequest.imageKey
        let (operation, cancelRequest): (ResponseHandler.Operation?, Bool) = lock.withLock {
            guard let handler = handlers[key], handler.request === requestReceipt.request,
                let index = handler.operations.firstIndex(where: { $0.receiptID == requestReceipt.receiptID })
            else { return (nil, false) }
            let operation = handler.operations.remove(at: index)
            guard handler.operations.isEmpty, !handler.isActive else { return (operation, false) }
            handlers[key] = nil
            queued.removeAll { $0 === handler.request }
            return (operation, true)
        }
        guard let operation else { return }
        let reason = "ImageDownloader cancelled URL request: \(urlRequest.urlString)"
        let error = NSError(
            domain: NSURLErrorDomain, code: NSURLErrorCancelled,
            userInfo: [NSLocalizedFailureReasonErrorKey: reason])
        Self.complete(
            operation.completion, with: Response(request: urlRequest, response: nil, data: nil, result: .Failure(error))
        )
        if cancelRequest { requestReceipt.request.cancel() }
    }

    // MARK: Internals

    /// Adds `operation` to the download for `key`, if there is one; returns its request.
    private func join(_ key: String, _ operation: ResponseHandler.Operation) -> Request? {
        lock.withLock {
            guard let handler = handlers[key] else { return nil }
            handler.operations.append(operation)
            return handler.request
        }
    }

    /// Whether `policy` lets the downloader answer from its image cache.
    static func cachePolicyAllowsCacheReads(_ policy: URLRequest.CachePolicy) -> Bool {
        switch policy {
        case .useProtocolCachePolicy, .returnCacheDataElseLoad, .returnCacheDataDontLoad: true
        default: false
        }
    }

    /// Calls `completion` with `response` on the main queue.
    private static func complete(_ completion: CompletionHandler?, with response: Response<Image, NSError>) {
        guard let completion else { return }
        DispatchQueue.main.async { MainActor.assumeIsolated { completion(response) } }
    }

    /// A download ended (on a background queue): serialize, filter, cache and complete each
    /// caller in order, then start the next queued download (so with one slot, completions come
    /// in queue order).
    private func finished(_ request: Request, key: String, outcome: Request.Outcome) {
        let handler: ResponseHandler? = lock.withLock {
            guard let handler = handlers[key], handler.request === request else { return nil }
            handlers[key] = nil
            return handler
        }
        guard let handler else { return }
        deliver(outcome, to: handler.operations)
        let next: Request? = lock.withLock {
            activeCount -= 1
            guard activeCount < maximumActiveDownloads, !queued.isEmpty else { return nil }
            let next = queued.removeFirst()
            activeCount += 1
            handlers[next.request?.imageKey ?? ""]?.isActive = true
            return next
        }
        next?.resume()
    }

    /// Completes `operations` with `outcome`: its failure, or each caller's filtered image
    /// (identical filter identifiers are computed once), cached under the filter's identifier.
    private func deliver(_ outcome: Request.Outcome, to operations: [ResponseHandler.Operation]) {
        let response = Request.serialize(outcome, with: Request.imageResponseSerializer())
        guard case .Success(let image) = response.result else {
            for operation in operations { Self.complete(operation.completion, with: response) }
            return
        }
        var filtered: [String: Image] = [:]
        for operation in operations {
            var result = image
            if let filter = operation.filter {
                if let done = filtered[filter.identifier] {
                    result = done
                } else {
                    result = filter.filter(image)
                    filtered[filter.identifier] = result
                }
            }
            if let urlRequest = outcome.request {
                imageCache?.addImage(
                    result, forRequest: urlRequest, withAdditionalIdentifier: operation.filter?.identifier)
            }
            Self.complete(
                operation.completion,
                with: Response(
                    request: outcome.request, response: outcome.response,
                    data: outcome.data, result: .Success(result)))
        }
    }
}
