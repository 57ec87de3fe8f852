import Foundation
import Locking
import Streams
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// Returns a publisher that wraps a data task for the URL.
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// Returns a publisher that wraps a data task for the request.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// A publisher that delivers the results of one data task per subscriber.
    ///
    /// The task starts on the subscriber's first demand; its data and response arrive as one
    /// value followed by `.finished`, or a transport error as `.failure(URLError)` (an HTTP
    /// error status is a normal response, as in Combine). Cancelling cancels the task.
    /// Thread-safety: the value and completion arrive on the session's delegate queue.
    public struct DataTaskPublisher: Streams.Publisher, @unchecked Sendable {
        /// The response body and the response.
        public typealias Output = (data: Data, response: URLResponse)
        /// The transport error.
        public typealias Failure = URLError

        /// The URL request performed by the data task.
        public let request: URLRequest
        /// The URL session that performs the data task.
        public let session: URLSession

        /// Creates a data task publisher.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        /// Hands the subscriber a subscription that starts the task on first demand.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(
                subscription: DataTaskSubscription(downstream: subscriber, request: request, session: session))
        }
    }
}

/// Starts one data task on first demand and forwards its outcome.
private final class DataTaskSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == URLSession.DataTaskPublisher.Output, Downstream.Failure == URLError {
    // @unchecked Sendable: its state is behind its `Locked` lock; the rest is immutable.
    private struct State {
        var downstream: Downstream?
        var task: URLSessionDataTask?
        var hasStarted = false
        /// The demand requested so far (shown in the mirror, as Combine's).
        var demand = Subscribers.Demand.none
    }

    private let state: Locked<State>
    private let request: URLRequest
    private let session: URLSession

    init(downstream: Downstream, request: URLRequest, session: URLSession) {
        state = Locked(State(downstream: downstream))
        self.request = request
        self.session = session
    }

    var description: String { "DataTaskPublisher" }

    var playgroundDescription: Any { description }

    /// As Combine's: the task once made, the downstream and the publisher while the stream is
    /// live (`nil` afterwards), and the demand requested so far.
    var customMirror: Mirror {
        let (task, downstream, demand) = state.withLock { ($0.task, $0.downstream, $0.demand) }
        let parent: URLSession.DataTaskPublisher? =
            downstream == nil ? nil : URLSession.DataTaskPublisher(request: request, session: session)
        return Mirror(
            self,
            children: [
                ("task", task.map { $0 as Any } ?? "nil"),
                ("downstream", downstream.map { $0 as Any } ?? "nil"),
                ("parent", parent as Any),
                ("demand", demand),
            ])
    }

    func request(_ demand: Subscribers.Demand) {
        // Combine's contract: never `.none`. Debug builds trap, as Combine's do; release
        // builds ignore the request.
        assert(demand > 0, "A subscription was asked for no values (.none), which breaks the contract")
        guard demand > 0 else { return }
        // As Combine's: the task is made at the first request and resumed at every request
        // (resuming a running task does nothing).
        let (start, running) = state.withLock { state -> (Bool, URLSessionDataTask?) in
            guard state.downstream != nil else { return (false, nil) }
            state.demand += demand
            guard !state.hasStarted else { return (false, state.task) }
            state.hasStarted = true
            return (true, nil)
        }
        guard start else {
            running?.resume()
            return
        }
        let callback = UncheckedCallback<(Data?, URLResponse?, Error?)> { [weak self] in
            self?.finish(data: $0.0, response: $0.1, error: $0.2)
        }
        let task = session.dataTask(with: request) { data, response, error in
            callback.body((data, response, error))
        }
        let stale = state.withLock { state -> URLSessionDataTask? in
            if state.downstream == nil { return task }
            state.task = task
            return nil
        }
        if let stale {
            stale.cancel()
        } else {
            task.resume()
        }
    }

    private func finish(data: Data?, response: URLResponse?, error: Error?) {
        let downstream = state.withLock { state -> Downstream? in
            defer { state = State(hasStarted: true) }
            return state.downstream
        }
        guard let downstream else { return }
        if let error {
            downstream.receive(completion: .failure(Self.urlError(error)))
        } else if let response {
            _ = downstream.receive((data ?? Data(), response))
            downstream.receive(completion: .finished)
        } else {
            // Neither an error nor a response: as Combine's, an unknown error.
            downstream.receive(completion: .failure(URLError(.unknown)))
        }
    }

    /// The error as a `URLError` (swift-corelibs-foundation reports an `NSError` in
    /// `NSURLErrorDomain`, which keeps its code).
    private static func urlError(_ error: Error) -> URLError {
        if let urlError = error as? URLError { return urlError }
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return URLError(.unknown) }
        return URLError(URLError.Code(rawValue: nsError.code) ?? .unknown, userInfo: nsError.userInfo)
    }

    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            defer { state = State(hasStarted: true) }
            return state.task
        }
        task?.cancel()
    }
}
