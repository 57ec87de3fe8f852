import Comet
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What Alamofire 3's `Manager` did for the image API (``Manager`` wraps one): creates
/// ``Request``s and loads them with one Comet `DataLoader`, answering authentication challenges
/// with each request's credential, behind an HTTP disk cache when the configuration has a
/// `URLCache` with disk capacity (Comet's `HTTPCachingDataLoader`).
final class RequestSession: Sendable {
    private let loader: any DataLoading
    private let credentials: CredentialRegistry
    private static let identifiers = IdentifierSource()

    /// A session whose loader takes its timeouts and additional headers from `configuration`,
    /// and its disk cache from the configuration's `urlCache` (none when it is `nil` or its
    /// `diskCapacity` is 0; a disk path without one of its own: `defaultCacheName` under the
    /// user's cache directory).
    init(configuration: URLSessionConfiguration, defaultCacheName: String) {
        let credentials = CredentialRegistry()
        var settings = Comet.DataLoader.Configuration()
        settings.timeoutForRequest = configuration.timeoutIntervalForRequest
        settings.timeoutForResource = configuration.timeoutIntervalForResource
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            if let name = name as? String { settings.additionalHeaders[name] = "\(value)" }
        }
        // The provider sees the task's original request: the credential of the request with that
        // URL answers (the downloader never has two requests for one URL at once).
        settings.credentialProvider = { _, request in credentials.credential(for: request) }
        self.credentials = credentials
        let network = Comet.DataLoader(configuration: settings)
        self.loader =
            HTTPCachingDataLoader(
                loader: network, urlCache: configuration.urlCache, defaultDirectoryName: defaultCacheName)
            ?? network
    }

    /// A new suspended request for `urlRequest`.
    func makeRequest(_ urlRequest: URLRequest) -> Request {
        Request(session: self, request: urlRequest, taskIdentifier: Self.identifiers.next())
    }

    /// Starts loading `request` (called once, by ``Request/resume()``).
    func start(_ request: Request, credential: URLCredential?) {
        guard let urlRequest = request.request else { return }
        let token = credential.map { credentials.add($0, for: urlRequest) }
        // Loads hold their request strongly until they finish (Alamofire's Manager kept them too),
        // so `Alamofire.request(…).responseImage { … }` completes without the caller keeping it.
        let task = loader.loadData(
            with: urlRequest,
            didReceiveData: { data, response in
                request.didReceive(data, response: response)
            },
            completion: { [credentials] error in
                if let token { credentials.remove(token) }
                request.finish(error: error.map(AlamofireErrors.translate))
            })
        request.started(LoadingTask(task: task))
    }
}

/// Wraps Comet's loading task.
private struct LoadingTask: Cancelling {
    let task: any DataLoadingTask
    func cancel() { task.cancel() }
}

/// Request identifiers, unique in the process.
private final class IdentifierSource: Sendable {
    private let value = Atomic<Int>(0)
    func next() -> Int { value.add(1, ordering: .relaxed).newValue }
}

/// The credentials of running requests, by URL string.
final class CredentialRegistry: Sendable {
    struct Token: Sendable { let id: Int; let key: String }
    private struct Entries {
        var byURL: [String: [(id: Int, credential: URLCredential)]] = [:]
        var lastID = 0
    }
    private let entries = LockedValue(Entries())

    func add(_ credential: URLCredential, for request: URLRequest) -> Token {
        entries.withLock { entries in
            entries.lastID += 1
            let token = Token(id: entries.lastID, key: request.urlString)
            entries.byURL[token.key, default: []].append((entries.lastID, credential))
            return token
        }
    }

    func remove(_ token: Token) {
        entries.withLock { entries in
            entries.byURL[token.key]?.removeAll { $0.id == token.id }
            if entries.byURL[token.key]?.isEmpty == true { entries.byURL[token.key] = nil }
        }
    }

    /// The credential of the latest running request for the URL of `request`, if any.
    func credential(for request: URLRequest?) -> URLCredential? {
        guard let request else { return nil }
        return entries.withLock { $0.byURL[request.urlString]?.last?.credential }
    }
}
