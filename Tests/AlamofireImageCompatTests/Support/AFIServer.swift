import AlamofireImageCompat
import CometTestSupport
import FlyingFox
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The loopback test server plus routes that answer with real image MIME types (TestServer's
/// built-in routes say `image/*`, which AlamofireImage's serializer does not accept by itself).
struct AFIServer {
    let server: TestServer

    static func start() async throws -> AFIServer {
        // The built-in /slow and /basic routes answer `image/*`: accept it process-wide (the
        // legacy API for servers that send other image types).
        Request.addAcceptableImageContentTypes(["image/*"])
        return AFIServer(server: try await TestServer.start())
    }

    /// Serves `data` at `/typed/NAME` with `contentType`; returns the URL.
    @discardableResult
    func serve(_ data: Data, at name: String, contentType: String = "image/png") -> URL {
        let path = "/typed/\(name)"
        server.handle(path) { _ in
            HTTPResponse(statusCode: .ok, headers: [HTTPHeader("Content-Type"): contentType], body: data)
        }
        return server.url(path)
    }

    /// Serves `data` at `/gated/NAME`, answering only once `gate` opens (at most 10 s).
    @discardableResult
    func serve(_ data: Data, at name: String, after gate: Gate, contentType: String = "image/png") -> URL {
        let path = "/gated/\(name)"
        server.handle(path) { _ in
            _ = await eventually { gate.isOpen }
            return HTTPResponse(statusCode: .ok, headers: [HTTPHeader("Content-Type"): contentType], body: data)
        }
        return server.url(path)
    }

    func requestCount(for url: URL) -> Int { server.requestCount(for: url.path) }

    func stop() async { await server.stop() }
}

/// A switch a test opens to let gated responses go.
final class Gate: @unchecked Sendable {
    // `open` is only touched under `lock`.
    private let lock = NSLock()
    private var open = false
    var isOpen: Bool { lock.withLock { open } }
    func release() { lock.withLock { open = true } }
}

/// Collects values from callbacks on any thread.
final class Recorder<Value>: @unchecked Sendable {
    // `values` is only touched under `lock`.
    private let lock = NSLock()
    private var storage: [Value] = []
    func append(_ value: Value) { lock.withLock { storage.append(value) } }
    var values: [Value] { lock.withLock { storage } }
    var count: Int { values.count }
}

/// Whether the caller runs on the main dispatch queue (what the legacy API promises; on Linux the
/// queue may be drained by a thread Foundation does not call "main").
func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: MainQueueMarker.key) == true
}

private enum MainQueueMarker {
    static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}

/// One completion as a test sees it.
struct Completion: @unchecked Sendable {
    // Immutable snapshot of a Response (its parts are never mutated).
    let response: Response<Image, NSError>
    let onMainThread: Bool
    let tag: String
    var image: Image? { response.result.value }
    var error: NSError? { response.result.error }
}

extension Recorder where Value == Completion {
    /// A completion handler that records its response under `tag`.
    func handler(_ tag: String = "") -> ImageDownloader.CompletionHandler {
        { response in self.append(Completion(response: response, onMainThread: isOnMainQueue(), tag: tag)) }
    }
}

/// Counts how often a filter runs and whether it ever ran on the main thread.
final class FilterProbe: @unchecked Sendable {
    // `runs` and `ranOnMain` are only touched under `lock`.
    private let lock = NSLock()
    private var runs = 0
    private var ranOnMain = false
    var runCount: Int { lock.withLock { runs } }
    var everRanOnMain: Bool { lock.withLock { ranOnMain } }

    /// A filter named `identifier` that records its runs and returns a `width`×`height` crop.
    func filter(_ identifier: String, width: Int = 8, height: Int = 8) -> DynamicImageFilter {
        DynamicImageFilter(identifier) { image in
            self.lock.withLock {
                self.runs += 1
                if isOnMainQueue() { self.ranOnMain = true }
            }
            return image.cropped(x: 0, y: 0, width: width, height: height)
        }
    }
}
