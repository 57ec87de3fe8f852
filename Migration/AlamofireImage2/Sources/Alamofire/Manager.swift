import Comet
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Alamofire 3's `Manager`: makes ``Request``s that share one session configuration. A thin
/// layer over the shim's loading (one Comet `DataLoader`, with an HTTP disk cache when the
/// configuration's `urlCache` has disk capacity), not a second networking stack.
///
/// From the configuration it takes the request and resource timeouts, the additional HTTP
/// headers and the `urlCache` (its disk capacity and disk path; `diskCapacity = 0` or no cache
/// turns the disk cache off). Thread-safe.
public final class Manager: @unchecked Sendable {
    // `startsImmediately` and `madeSession` are only touched under `lock`.

    /// The manager behind ``Alamofire/request(_:_:headers:)``: the `.default` configuration, whose
    /// `URLCache.shared` keeps a disk cache as it did on Apple platforms.
    public static let sharedInstance = Manager()

    /// Whether ``request(_:_:headers:)`` starts its requests at once (default `true`). Set it
    /// before making requests.
    public var startRequestsImmediately: Bool {
        get { lock.withLock { startsImmediately } }
        set { lock.withLock { startsImmediately = newValue } }
    }

    /// The configuration the manager was made with.
    public let configuration: URLSessionConfiguration

    let requestSession: RequestSession
    private let lock = NSLock()
    private var startsImmediately = true
    private var madeSession: URLSession?

    /// A manager for `configuration` (default `.default`).
    public convenience init(configuration: URLSessionConfiguration = .default) {
        self.init(configuration: configuration, defaultCacheName: "org.swift.foundation.URLCache")
    }

    /// `defaultCacheName`: the disk cache's folder under the user's cache directory when the
    /// configuration's `URLCache` does not tell its own.
    init(configuration: URLSessionConfiguration, defaultCacheName: String) {
        self.configuration = configuration
        self.requestSession = RequestSession(configuration: configuration, defaultCacheName: defaultCacheName)
    }

    /// A `URLSession` with the manager's configuration, made when first asked for, for code that
    /// reads its settings. The manager's requests do not load through it: they use Comet's loader.
    public var session: URLSession {
        lock.withLock {
            if let madeSession { return madeSession }
            let made = URLSession(configuration: configuration)
            madeSession = made
            return made
        }
    }

    // Alamofire 3's parameter name, kept as it documents the call.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Makes a request with `method` for `URLString`, adding `headers`; started unless
    /// ``startRequestsImmediately`` is `false`.
    ///
    /// A string that is not a URL gives a request that fails with an "unsupported URL" error.
    public func request(
        _ method: Method, _ URLString: URLRequestConvertible,
        headers: [String: String]? = nil
    ) -> Request {
        var urlRequest = URLString.URLRequest
        urlRequest.httpMethod = method.rawValue
        for (name, value) in headers ?? [:] {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        return request(urlRequest)
    }

    // Alamofire 3's parameter name, kept as it documents the call.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Makes a request for `URLRequest`; started unless ``startRequestsImmediately`` is `false`.
    public func request(_ URLRequest: URLRequestConvertible) -> Request {
        let request = requestSession.makeRequest(URLRequest.URLRequest)
        if startRequestsImmediately { request.resume() }
        return request
    }
}
