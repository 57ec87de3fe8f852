import AsyncHTTPClient
import Comet
import Foundation
import Locking
import NIOCore
import NIOHTTP1
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One load over http(s): its requests (the first and each redirect's), its cancellation and its
/// single completion. The per-request work (status, size, streaming) is ``HTTPLoadDelegate``'s.
///
/// Its state sits behind a lock; the handlers and AsyncHTTPClient are always called outside it.
final class HTTPLoad: DataLoadingTask, Sendable {
    struct Handlers: Sendable {
        let didReceiveData: @Sendable (Data, URLResponse) -> Void
        let completion: @Sendable ((any Error)?) -> Void
    }

    /// Where requests go: the loader's client, or with a resolver a client pinned to the
    /// address the resolver chose.
    struct Connector: Sendable {
        let client: HTTPClient
        let pinnedClients: PinnedClients
        let resolver: (any HostResolving)?
    }

    private enum Phase {
        /// Waiting for the resolver, or between a redirect and its request.
        case preparing
        case running(HTTPClient.Task<Void>)
        case finished
    }

    private struct State {
        var phase = Phase.preparing
        var isCancelled = false
        var redirects = 0
        /// Dropped at the completion: the callbacks hold the caller (a pipeline's job), which
        /// holds this task.
        var handlers: Handlers?
    }

    private let firstRequest: URLRequest
    private let configuration: AsyncHTTPClientDataLoader.Configuration
    private let connector: Connector
    private let deadline: NIODeadline
    private let state: Locked<State>

    init(
        request: URLRequest, configuration: AsyncHTTPClientDataLoader.Configuration, connector: Connector,
        handlers: Handlers
    ) {
        firstRequest = request
        self.configuration = configuration
        self.connector = connector
        state = Locked(State(handlers: handlers))
        deadline = .now() + .milliseconds(Int64(configuration.timeoutForResource * 1000))
    }

    func start() { send(firstRequest) }

    func cancel() {
        let action: HTTPClient.Task<Void>?? = state.withLock { state in
            guard !state.isCancelled else { return nil }
            state.isCancelled = true
            switch state.phase {
            case .running(let task): return .some(task)
            case .preparing: return .some(nil)
            case .finished: return nil
            }
        }
        switch action {
        case .some(.some(let task)): task.cancel()  // its delegate then reports the cancellation
        case .some(.none): finish(URLError(.cancelled))
        case .none: break
        }
    }

    // MARK: Requests

    private func send(_ request: URLRequest) {
        guard let resolver = connector.resolver else {
            execute(request, on: connector.client, pinnedHost: nil)
            return
        }
        guard let url = request.url else {
            finish(DataLoaderError.unsupportedURL(nil))
            return
        }
        Task {
            do {
                let target = try await resolver.resolve(url)
                guard let host = target.url.host?.lowercased().trimmingCharacters(in: ["[", "]"]), !host.isEmpty else {
                    throw DataLoaderError.unsupportedURL(target.url)
                }
                guard let client = connector.pinnedClients.lease(host: host, address: target.address) else {
                    throw URLError(.cancelled)
                }
                var request = request
                request.url = target.url
                execute(request, on: client, pinnedHost: host)
            } catch {
                finish(error)
            }
        }
    }

    private func execute(_ request: URLRequest, on client: HTTPClient, pinnedHost: String?) {
        let outgoing: HTTPClient.Request
        do {
            outgoing = try Self.clientRequest(for: request)
        } catch {
            if let pinnedHost { connector.pinnedClients.release(host: pinnedHost, client: client) }
            finish(DataLoaderError.unsupportedURL(request.url))
            return
        }
        let delegate = HTTPLoadDelegate(
            load: self, url: request.url ?? outgoing.url,
            maximumSize: configuration.maximumResponseDataSize)
        let task = client.execute(request: outgoing, delegate: delegate, deadline: deadline)
        if let pinnedHost {
            let pinnedClients = connector.pinnedClients
            task.futureResult.whenComplete { _ in pinnedClients.release(host: pinnedHost, client: client) }
        }
        let isCancelled = state.withLock { state in
            if case .finished = state.phase { return true }
            state.phase = .running(task)
            return state.isCancelled
        }
        if isCancelled { task.cancel() }
    }

    private static func clientRequest(for request: URLRequest) throws -> HTTPClient.Request {
        guard let url = request.url else { throw DataLoaderError.unsupportedURL(nil) }
        var headers = HTTPHeaders()
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name: name, value: value) }
        let body = request.httpBody.map { HTTPClient.Body.bytes($0) }
        return try HTTPClient.Request(
            url: url, method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
            headers: headers, body: body)
    }

    // MARK: Called by the delegate

    /// Passes a chunk on, unless the load has ended or was cancelled.
    func deliver(_ data: Data, response: URLResponse) {
        let didReceiveData = state.withLock { state -> (@Sendable (Data, URLResponse) -> Void)? in
            if case .finished = state.phase { return nil }
            return state.isCancelled ? nil : state.handlers?.didReceiveData
        }
        didReceiveData?(data, response)
    }

    /// Follows a redirect from `url` (answered with `status` and `location`) as the policy says.
    func redirect(from url: URL, status: Int, location: String) {
        let redirects = state.withLock { state in
            state.redirects += 1
            state.phase = .preparing
            return state.redirects
        }
        guard redirects <= configuration.maximumRedirects else {
            finish(URLError(.httpTooManyRedirects))
            return
        }
        guard let target = URL(string: location, relativeTo: url)?.absoluteURL,
            ["http", "https"].contains(target.scheme?.lowercased() ?? "")
        else {
            finish(DataLoaderError.unsupportedURL(URL(string: location)))
            return
        }
        var proposed = firstRequest
        proposed.url = target
        let method = (firstRequest.httpMethod ?? "GET").uppercased()
        if status == 303 || ((status == 301 || status == 302) && method == "POST") {
            proposed.httpMethod = method == "HEAD" ? "HEAD" : "GET"
            proposed.httpBody = nil
            proposed.setValue(nil, forHTTPHeaderField: "Content-Type")
            proposed.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        switch configuration.redirectPolicy.decide(from: url, original: firstRequest.url, to: proposed) {
        case .follow(let request):
            if state.withLock({ $0.isCancelled }) {
                finish(URLError(.cancelled))
            } else {
                send(request)
            }
        case .refuse:
            finish(DataLoaderError.insecureRedirect(from: url, to: target))
        }
    }

    /// Ends the load: the completion runs once, whatever calls this afterwards.
    func finish(_ error: (any Error)?) {
        let ending = state.withLock { state -> (handlers: Handlers, isCancelled: Bool)? in
            if case .finished = state.phase { return nil }
            state.phase = .finished
            defer { state.handlers = nil }
            return state.handlers.map { ($0, state.isCancelled) }
        }
        guard let ending else { return }
        // A cancelled load reports the cancellation, whatever ended it.
        ending.handlers.completion(ending.isCancelled ? URLError(.cancelled) : error)
    }
}
