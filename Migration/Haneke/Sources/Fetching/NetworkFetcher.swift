import Comet
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads a URL with Comet's `DataLoader` (timeouts, Content-Length checks) and converts the
/// body. Its key is the URL's absolute string.
///
/// Errors (on main): status other than 200 or 201 → -402 (described by the status text); a body
/// shorter than its Content-Length → -401; bytes that do not convert → -400; transport errors
/// pass through. After ``cancelFetch()`` nothing is called.
open class NetworkFetcher<T: DataConvertible>: Fetcher<T>, @unchecked Sendable {
    // Safe: `task` and `cancelled` live behind `lock`; callbacks are made after unlocking.

    // Haneke's name, kept for source compatibility.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The URL downloaded.
    public let URL: URL

    private let lock = NSLock()
    private var task: (any DataLoadingTask)?
    private var cancelled = false

    /// A fetcher for `URL`, keyed by its absolute string.
    public init(URL: URL) {
        self.URL = URL
        super.init(key: URL.absoluteString)
    }

    /// The session whose configuration the download uses: `URLSession.shared` unless a
    /// subclass overrides it. The download goes through Comet's loader, not the session's tasks:
    /// from an overriding session's configuration it takes the request and resource timeouts and
    /// the additional HTTP headers.
    open var session: URLSession { URLSession.shared }

    /// Starts the download (again, if it was cancelled).
    open override func fetch(failure: @escaping (Error?) -> (), success: @escaping (T.Result) -> ()) {
        lock.withLock { cancelled = false }
        let callbacks = Unchecked((failure, success))
        let body = Body()
        // Strong self: a fetcher nobody else keeps still reports (the loader drops the closure once called).
        let finish = Unchecked { (error: Error?) in
            let (data, response) = body.contents
            self.finish(data: data, response: response, error: error, callbacks: callbacks)
        }
        let session = self.session
        let loader = session === URLSession.shared ? networkFetcherLoader : Self.loader(for: session.configuration)
        let task = loader.loadData(
            with: URLRequest(url: URL),
            didReceiveData: { data, response in
                body.append(data, response: response)
            },
            completion: { error in
                // A loader made for this fetch lives until its load ends (a released Comet
                // loader cancels its loads).
                withExtendedLifetime(loader) {}
                finish.value(error)
            })
        lock.withLock { self.task = task }
    }

    /// Cancels the download; no callback follows.
    open override func cancelFetch() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }

    private func finish(
        data: Data, response: URLResponse?, error: Error?,
        callbacks: Unchecked<((Error?) -> (), (T.Result) -> ())>
    ) {
        guard !lock.withLock({ cancelled }) else { return }
        let (failure, success) = callbacks.value
        func fail(_ code: HanekeGlobals.NetworkFetcher.ErrorCode, _ description: String) {
            let error = errorWithCode(code.rawValue, description: description)
            onMain { failure(error) }
        }
        // A body cut short: Comet's loader reports it as incompleteBody, or URLSession (curl)
        // fails the transfer itself; either way Haneke's answer is -401.
        if let http = response as? HTTPURLResponse, http.expectedContentLength >= 0,
            data.count < Int(http.expectedContentLength), error != nil, !Self.isCancellation(error)
        {
            return fail(
                .missingData,
                String(
                    format: "Request expected %ld bytes and received %ld bytes",
                    Int(http.expectedContentLength), data.count))
        }
        if let error {
            switch error {
            case DataLoaderError.statusCode(let status), DataLoaderError.retryAfter(let status, _):
                return fail(.invalidStatusCode, HTTPURLResponse.localizedString(forStatusCode: status))
            case DataLoaderError.incompleteBody(let received, let expected):
                return fail(
                    .missingData,
                    String(format: "Request expected %ld bytes and received %ld bytes", expected, received))
            case _ where Self.isCancellation(error):
                return
            default:
                onMain { failure(error) }
                return
            }
        }
        if let http = response as? HTTPURLResponse, http.statusCode != 200 && http.statusCode != 201 {
            return fail(.invalidStatusCode, HTTPURLResponse.localizedString(forStatusCode: http.statusCode))
        }
        guard let value = T.convertFromData(data) else {
            return fail(.invalidData, "Failed to convert value from data at URL \(URL.absoluteString)")
        }
        let box = Unchecked(value)
        onMain {
            success(box.value)
        }
    }
}

extension NetworkFetcher {
    /// A loader with the timeouts and additional headers of `configuration`.
    static func loader(for configuration: URLSessionConfiguration) -> Comet.DataLoader {
        var settings = Comet.DataLoader.Configuration()
        settings.timeoutForRequest = configuration.timeoutIntervalForRequest
        settings.timeoutForResource = configuration.timeoutIntervalForResource
        for case let (name as String, value) in configuration.httpAdditionalHeaders ?? [:] {
            settings.additionalHeaders[name] = "\(value)"
        }
        return Comet.DataLoader(configuration: settings)
    }

    /// URLSession's "cancelled" (-999), in either of the forms Foundation reports it.
    static func isCancellation(_ error: Error?) -> Bool {
        if let error = error as? URLError { return error.code == .cancelled }
        let error = error as NSError?
        return error?.domain == NSURLErrorDomain && error?.code == NSURLErrorCancelled
    }
}

/// Shared by every network fetcher (one URLSession, like Haneke's `URLSession.shared`).
private let networkFetcherLoader = Comet.DataLoader()

/// The bytes of one download, collected from the loader's delivery thread.
private final class Body: @unchecked Sendable {
    // Safe: both properties are read and written under `lock`.
    private let lock = NSLock()
    private var data = Data()
    private var response: URLResponse?

    func append(_ chunk: Data, response: URLResponse) {
        lock.withLock {
            data.append(chunk)
            self.response = response
        }
    }

    var contents: (Data, URLResponse?) { lock.withLock { (data, response) } }
}
