import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request, as Alamofire 3's `Request`: created suspended, started with ``resume()``
/// (``Alamofire/request(_:_:headers:)`` and `ImageDownloader` start theirs), cancelled with
/// ``cancel()``; response handlers added before or after it finishes all get its outcome.
///
/// Loading goes through Comet's `DataLoader`: statuses outside 200..<300 always fail (with
/// Alamofire's -6003 error and the status in `userInfo["StatusCode"]`), with or without
/// ``validate()``. Thread-safe.
public final class Request: @unchecked Sendable {
    // All mutable state sits behind `lock` (an NSLock, visible to ThreadSanitizer); handlers
    // and the progress closure are always called after it is released.

    /// A progress callback: bytes in this chunk, bytes so far, bytes expected (-1 if unknown).
    public typealias ProgressClosure =
        @Sendable (
            _ bytesRead: Int64, _ totalBytesRead: Int64,
            _ totalBytesExpectedToRead: Int64
        ) -> Void

    /// The request's task: its state and counters (Alamofire exposed the URLSessionTask).
    /// Equal only to itself, as a `URLSessionTask` (an `NSObject`) was: apps compare
    /// `request.task` to find their request.
    public final class DataTask: Hashable, @unchecked Sendable {
        // Reads and writes go through the owning request's lock.
        fileprivate unowned let owner: Request
        /// The request as created.
        public let originalRequest: URLRequest?
        /// A number unique among this process's requests.
        public let taskIdentifier: Int

        fileprivate init(owner: Request, originalRequest: URLRequest, taskIdentifier: Int) {
            self.owner = owner
            self.originalRequest = originalRequest
            self.taskIdentifier = taskIdentifier
        }

        /// `.suspended` until resumed, `.running`, `.canceling` after ``Request/cancel()`` of a
        /// running request, `.completed` once finished (or cancelled before it started).
        public var state: URLSessionTask.State { owner.locked { $0.state } }
        /// The server's response, once it arrived.
        public var response: URLResponse? { owner.locked { $0.response } }
        /// Body bytes received so far.
        public var countOfBytesReceived: Int64 { owner.locked { Int64($0.data.count) } }
        /// The announced body length, or -1 when unknown or not yet known.
        public var countOfBytesExpectedToReceive: Int64 { owner.locked { $0.response?.expectedContentLength ?? -1 } }

        /// Whether `lhs` and `rhs` are the same task.
        public static func == (lhs: DataTask, rhs: DataTask) -> Bool { lhs === rhs }

        /// Hashes the task's identity.
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    /// The request's delegate, as Alamofire 3's `TaskDelegate`: where apps read and set the
    /// request's credential, and read its data and error once it finished.
    public final class TaskDelegate: @unchecked Sendable {
        // Reads and writes go through the owning request's lock.
        fileprivate unowned let owner: Request

        fileprivate init(owner: Request) {
            self.owner = owner
        }

        /// The credential answered to authentication challenges; setting it is
        /// ``Request/authenticate(usingCredential:)`` (before the request starts).
        public var credential: URLCredential? {
            get { owner.locked { $0.credential } }
            set { owner.locked { $0.credential = newValue } }
        }

        /// The body received so far; `nil` before a response arrived.
        public var data: Data? { owner.locked { $0.response == nil && $0.data.isEmpty ? nil : $0.data } }

        /// The error the request finished with, if any.
        public var error: NSError? { owner.locked { $0.outcome?.error } }
    }

    /// The outcome, once known.
    struct Outcome: @unchecked Sendable {
        // Immutable snapshot: URLRequest, HTTPURLResponse, Data and NSError are not mutated.
        let request: URLRequest?
        let response: HTTPURLResponse?
        let data: Data?
        let error: NSError?
    }

    struct State {
        var state: URLSessionTask.State = .suspended
        var response: URLResponse?
        var data = Data()
        var credential: URLCredential?
        var progress: ProgressClosure?
        var validations: [@Sendable (URLRequest?, HTTPURLResponse?) -> NSError?] = []
        var waiting: [@Sendable (Outcome) -> Void] = []
        var outcome: Outcome?
        var loading: (any Cancelling)?
    }

    /// The task: state, response and byte counts.
    public private(set) var task: DataTask!
    /// The delegate: the credential, the data and the error.
    public private(set) var delegate: TaskDelegate!
    private let session: RequestSession
    private let lock = NSLock()
    private var state = State()

    init(session: RequestSession, request: URLRequest, taskIdentifier: Int) {
        self.session = session
        self.task = nil
        self.delegate = nil
        self.task = DataTask(owner: self, originalRequest: request, taskIdentifier: taskIdentifier)
        self.delegate = TaskDelegate(owner: self)
    }

    /// The URL request this object sends.
    public var request: URLRequest? { task.originalRequest }

    /// The server's HTTP response, once it arrived.
    public var response: HTTPURLResponse? { locked { $0.response as? HTTPURLResponse } }

    /// The credential answered to an authentication challenge for this request, if any.
    public var credential: URLCredential? { locked { $0.credential } }

    fileprivate func locked<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    // MARK: Configuring

    /// Answers HTTP Basic or Digest challenges with `user` and `password`. Call before the
    /// request starts (a started request keeps the credential it had).
    @discardableResult
    public func authenticate(
        user: String, password: String,
        persistence: URLCredential.Persistence = .forSession
    ) -> Self {
        authenticate(usingCredential: URLCredential(user: user, password: password, persistence: persistence))
    }

    /// Answers authentication challenges with `credential`. Call before the request starts.
    @discardableResult
    public func authenticate(usingCredential credential: URLCredential) -> Self {
        locked { $0.credential = credential }
        return self
    }

    /// Sets the closure called as body bytes arrive (on a background queue).
    @discardableResult
    public func progress(_ closure: ProgressClosure? = nil) -> Self {
        locked { $0.progress = closure }
        return self
    }

    /// Fails the request unless its status is in 200..<300 (Comet's loader already enforces
    /// that) and, when the request has an `Accept` header, its response's MIME type matches
    /// one of those types (`*/*` and `type/*` wildcards allowed): Alamofire's `validate()`.
    @discardableResult
    public func validate() -> Self {
        locked {
            $0.validations.append { request, response in
                guard let response else { return nil }
                if !(200..<300).contains(response.statusCode) { return AlamofireErrors.statusCode(response.statusCode) }
                return Self.contentTypeError(request: request, response: response)
            }
        }
        return self
    }

    private static func contentTypeError(request: URLRequest?, response: HTTPURLResponse) -> NSError? {
        guard let accept = request?.value(forHTTPHeaderField: "Accept") else { return nil }
        let acceptable = accept.split(separator: ",").map {
            $0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()
        }
        let mimeType = response.mimeType?.lowercased()
        let matches = acceptable.contains { pattern in
            if pattern == "*/*" { return true }
            guard let mimeType else { return false }
            if pattern.hasSuffix("/*") { return mimeType.hasPrefix(pattern.dropLast()) }
            return pattern == mimeType
        }
        return matches ? nil : AlamofireErrors.contentType(mimeType, acceptable: acceptable)
    }

    // MARK: Lifecycle

    /// Starts the request if it has not started; does nothing otherwise.
    public func resume() {
        let credential: URLCredential?? = locked {
            guard $0.state == .suspended else { return nil }
            $0.state = .running
            return .some($0.credential)
        }
        guard let credential else { return }
        session.start(self, credential: credential)
    }

    /// Cancels the request: a running one stops loading and finishes with `NSURLErrorCancelled`
    /// (-999); one not yet started finishes at once with that error. Idempotent.
    public func cancel() {
        enum Action { case none, finish, stop(any Cancelling) }
        let action: Action = locked {
            switch $0.state {
            case .suspended:
                $0.state = .canceling
                return .finish
            case .running:
                $0.state = .canceling
                return $0.loading.map { .stop($0) } ?? .none
            default:
                return .none
            }
        }
        switch action {
        case .none: break
        case .finish: finish(error: AlamofireErrors.cancelled(request?.url))
        case .stop(let loading): loading.cancel()
        }
    }

    // MARK: Response handlers

    /// Calls `completionHandler` on `queue` (main by default) with the raw outcome: request,
    /// response, body and error.
    @discardableResult
    public func response(
        queue: DispatchQueue? = nil,
        completionHandler: @escaping @Sendable (URLRequest?, HTTPURLResponse?, Data?, NSError?) -> Void
    ) -> Self {
        whenFinished { outcome in
            (queue ?? .main).async { completionHandler(outcome.request, outcome.response, outcome.data, outcome.error) }
        }
        return self
    }

    /// Runs `responseSerializer` off the main queue once the request finishes, then calls
    /// `completionHandler` on `queue` (main by default) with the serialized ``Response``.
    @discardableResult
    public func response<Value, Error>(
        queue: DispatchQueue? = nil,
        responseSerializer: ResponseSerializer<Value, Error>,
        completionHandler: @escaping @Sendable (Response<Value, Error>) -> Void
    ) -> Self {
        whenFinished { outcome in
            let response = Self.serialize(outcome, with: responseSerializer)
            let box = UncheckedBox(response)
            (queue ?? .main).async { completionHandler(box.value) }
        }
        return self
    }

    /// Serializes `outcome` (on the caller's thread).
    static func serialize<Value, Error>(_ outcome: Outcome, with serializer: ResponseSerializer<Value, Error>)
        -> Response<Value, Error>
    {
        let result = serializer.serializeResponse(outcome.request, outcome.response, outcome.data, outcome.error)
        return Response(request: outcome.request, response: outcome.response, data: outcome.data, result: result)
    }

    /// Calls `body` on a background queue with the outcome, once known (at once if known).
    func whenFinished(_ body: @escaping @Sendable (Outcome) -> Void) {
        let outcome: Outcome? = locked {
            if $0.outcome == nil { $0.waiting.append(body) }
            return $0.outcome
        }
        if let outcome { DispatchQueue.global().async { body(outcome) } }
    }

    // MARK: Events from the session

    func started(_ loading: any Cancelling) {
        let cancelNow = locked {
            $0.loading = loading
            return $0.state == .canceling
        }
        if cancelNow { loading.cancel() }
    }

    func didReceive(_ chunk: Data, response: URLResponse) {
        let progress: (ProgressClosure, Int64, Int64)? = locked {
            $0.response = response
            $0.data.append(chunk)
            let total = Int64($0.data.count)
            // An empty chunk carries only the response of an empty body: no bytes to report.
            guard !chunk.isEmpty else { return nil }
            return $0.progress.map { ($0, total, response.expectedContentLength) }
        }
        if let (closure, total, expected) = progress { closure(Int64(chunk.count), total, expected) }
    }

    func finish(error: NSError?) {
        let original = task.originalRequest
        let (outcome, handlers): (Outcome?, [@Sendable (Outcome) -> Void]) = locked {
            guard $0.outcome == nil else { return (nil, []) }
            let wasCancelled = $0.state == .canceling
            $0.state = .completed
            let http = $0.response as? HTTPURLResponse
            var error = error
            if wasCancelled, error != nil { error = AlamofireErrors.cancelled(original?.url) }
            if error == nil { error = $0.validations.lazy.compactMap { $0(original, http) }.first }
            let outcome = Outcome(
                request: original, response: http,
                data: $0.response == nil && $0.data.isEmpty ? nil : $0.data, error: error)
            $0.outcome = outcome
            $0.loading = nil
            $0.progress = nil
            let waiting = $0.waiting
            $0.waiting = []
            return (outcome, waiting)
        }
        guard let outcome else { return }
        // Off the loader's callback queue: serializers decode images.
        for handler in handlers { DispatchQueue.global().async { handler(outcome) } }
    }
}

/// Something that stops a load (Comet's `DataLoadingTask`).
protocol Cancelling: Sendable {
    func cancel()
}

/// Carries a value that is not `Sendable` to one other queue, where it is used alone.
struct UncheckedBox<Value>: @unchecked Sendable {
    // Safe because the value is created, then handed over and only read on the receiving queue.
    let value: Value
    init(_ value: Value) { self.value = value }
}
