import Foundation
import NukeCompat
import CometTestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `Loading` double: records each call's request and token; answers with `image` unless told
/// to hold every load pending.
// Safe: `calls` and the pending resolvers are only touched under `lock`.
final class MockImageLoader: Loading, @unchecked Sendable {
    struct Call {
        let url: URL?
        let token: CancellationToken?
    }

    private let lock = NSLock()
    private var recorded: [Call] = []
    private let holdsLoads: Bool
    private let image: Image

    init(image: Image = TestImages.image(width: 4, height: 4), holdsLoads: Bool = false) {
        self.image = image
        self.holdsLoads = holdsLoads
    }

    var calls: [Call] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    func loadImage(with request: Request, token: CancellationToken?) -> Promise<Image> {
        lock.lock()
        recorded.append(Call(url: request.urlRequest.url, token: token))
        lock.unlock()
        if holdsLoads { return Promise { _, _ in } }
        return Promise(value: image)
    }
}

/// A `DataLoading` double that rejects every load with `error`.
struct FailingDataLoader: DataLoading {
    let error: Error
    func loadData(with request: URLRequest, token: CancellationToken?) -> Promise<(Data, URLResponse)> {
        Promise(error: error)
    }
}

/// A decoder that never decodes.
struct RefusingDecoder: DataDecoding {
    func decode(data: Data, response: URLResponse) -> Image? { nil }
}

/// A processor that always fails.
struct FailingProcessor: Processing {
    func process(_ image: Image) -> Image? { nil }
}

/// Adds `columns` to the width (a new blank image): order of composition is visible in sizes.
struct Widen: Processing {
    let columns: Int
    func process(_ image: Image) -> Image? {
        TestImages.image(width: image.width + columns, height: image.height)
    }
}

/// Doubles the width (a new blank image).
struct DoubleWidth: Processing {
    func process(_ image: Image) -> Image? {
        TestImages.image(width: image.width * 2, height: image.height)
    }
}

/// An error a test can recognise.
struct TestError: Error, Equatable {
    let code: Int
}

/// An in-memory `DataCaching`.
// Safe: `responses` is only touched under `lock`.
final class MemoryDataCache: DataCaching, @unchecked Sendable {
    private let lock = NSLock()
    private var responses: [URL: CachedURLResponse] = [:]

    func response(for request: URLRequest, token: CancellationToken?) -> Promise<CachedURLResponse> {
        lock.lock()
        let cached = request.url.flatMap { responses[$0] }
        lock.unlock()
        if let cached { return Promise(value: cached) }
        return Promise(error: TestError(code: 404))
    }

    func setResponse(_ response: CachedURLResponse, for request: URLRequest) {
        guard let url = request.url else { return }
        lock.lock()
        responses[url] = response
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return responses.count
    }
}

/// A `Loading` that records each call (URL and token) and hands its loads to `base`, or, when
/// `base` is `nil`, holds them until ``release()`` fulfils them with `image`. It watches each
/// promise it returns, so a test knows when the load resolved.
final class ObservedImageLoader: Loading, @unchecked Sendable {
    // Safe: the arrays are only touched under `lock`.
    private let lock = NSLock()
    private var recorded: [MockImageLoader.Call] = []
    private var held: [(Image) -> Void] = []
    private var resolvedCount = 0
    private let base: Loading?
    private let image: Image

    init(base: Loading? = nil, image: Image = TestImages.image(width: 4, height: 4)) {
        self.base = base
        self.image = image
    }

    var calls: [MockImageLoader.Call] { lock.withLock { recorded } }
    /// Loads whose promise has resolved (fulfilled or rejected).
    var resolved: Int { lock.withLock { resolvedCount } }

    func loadImage(with request: Request, token: CancellationToken?) -> Promise<Image> {
        lock.withLock { recorded.append(MockImageLoader.Call(url: request.urlRequest.url, token: token)) }
        let promise =
            base?.loadImage(with: request, token: token)
            ?? Promise { fulfill, _ in
                self.lock.withLock { self.held.append(fulfill) }
            }
        // Registered before the caller's own handlers, so on the (serial) callback queue it
        // runs first: once it ran, a block queued behind it runs after the caller's handler.
        promise.completion { _ in self.lock.withLock { self.resolvedCount += 1 } }
        return promise
    }

    /// Fulfils the held loads.
    func release() {
        let fulfils = lock.withLock {
            defer { held = [] }
            return held
        }
        for fulfil in fulfils { fulfil(image) }
    }
}

/// Waits until the callback queue has run everything queued on it so far.
func drainCallbackQueue() async {
    await withCheckedContinuation { continuation in Nuke.callbackQueue.async { continuation.resume() } }
}

/// A `DataLoading` double that holds every load until ``open()``, then answers each with the
/// bytes `answer` gives for its request (an HTTP 200). Loads started after the gate opened are
/// answered at once.
// Safe: the counters and the held answers are only touched under `lock`.
final class GatedDataLoader: DataLoading, @unchecked Sendable {
    private let lock = NSLock()
    private let answer: @Sendable (URLRequest) -> Data
    private var isOpen = false
    private var held: [() -> Void] = []
    private var started = 0

    /// Answers every request with `data`.
    convenience init(data: Data) {
        self.init { _ in data }
    }

    init(answer: @escaping @Sendable (URLRequest) -> Data) {
        self.answer = answer
    }

    /// Loads waiting for the gate.
    var pendingCount: Int { lock.withLock { held.count } }
    /// Loads started, held or not.
    var startedCount: Int { lock.withLock { started } }

    func loadData(with request: URLRequest, token: CancellationToken?) -> Promise<(Data, URLResponse)> {
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)!
        let data = answer(request)
        return Promise { fulfill, _ in
            let answer = { fulfill((data, response)) }
            let answerNow: Bool = self.lock.withLock {
                self.started += 1
                if !self.isOpen { self.held.append(answer) }
                return self.isOpen
            }
            if answerNow { answer() }
        }
    }

    /// Answers the held loads and every later one.
    func open() {
        let answers = lock.withLock {
            isOpen = true
            defer { held = [] }
            return held
        }
        for answer in answers { answer() }
    }
}
