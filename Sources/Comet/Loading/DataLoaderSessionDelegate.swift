import Locking
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The URLSession delegate behind ``DataLoader``: routes each task's events to its handlers and
/// enforces status, size and length rules. Its state is guarded by a lock; handlers are
/// always called outside it.
final class DataLoaderSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    struct Handlers {
        let didReceiveData: @Sendable (Data, URLResponse) -> Void
        let completion: @Sendable ((any Error)?) -> Void
    }

    private struct TaskState {
        let handlers: Handlers
        var response: URLResponse?
        var received = 0
        var failure: DataLoaderError?
    }

    private let maximumResponseDataSize: Int?
    private let credentialProvider: (@Sendable (URLAuthenticationChallenge, URLRequest?) -> URLCredential?)?
    private let redirectPolicy: RedirectPolicy
    private let tasks = Locked<[Int: TaskState]>([:])

    init(
        maximumResponseDataSize: Int?,
        credentialProvider: (@Sendable (URLAuthenticationChallenge, URLRequest?) -> URLCredential?)?,
        redirectPolicy: RedirectPolicy = RedirectPolicy()
    ) {
        self.maximumResponseDataSize = maximumResponseDataSize
        self.redirectPolicy = redirectPolicy
        self.credentialProvider = credentialProvider
    }

    func register(_ task: URLSessionTask, handlers: Handlers) {
        tasks.withLock { $0[task.taskIdentifier] = TaskState(handlers: handlers) }
    }

    /// Records why a task is being cancelled, so its completion reports that reason.
    /// A refused redirect stays the reason (the 3xx that follows it is not the cause).
    private func fail(_ task: URLSessionTask, _ error: DataLoaderError) {
        tasks.withLock { tasks in
            if case .insecureRedirect? = tasks[task.taskIdentifier]?.failure { return }
            tasks[task.taskIdentifier]?.failure = error
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
            fail(dataTask, Self.failure(for: http))
            // 401/407 bodies are allowed through (and dropped) so URLSession can raise the
            // authentication challenge and retry with a credential.
            let isChallenge = (http.statusCode == 401 || http.statusCode == 407) && credentialProvider != nil
            completionHandler(isChallenge ? .allow : .cancel)
            return
        }
        // A success after a challenge replaces the failure recorded for the first response.
        tasks.withLock { $0[dataTask.taskIdentifier]?.failure = nil }
        if let limit = maximumResponseDataSize, response.expectedContentLength > Int64(limit) {
            fail(dataTask, .responseTooLarge(limit: limit))
            completionHandler(.cancel)
            return
        }
        tasks.withLock { $0[dataTask.taskIdentifier]?.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let delivery: (Handlers, URLResponse)? = tasks.withLock { tasks in
            guard var state = tasks[dataTask.taskIdentifier], state.failure == nil else { return nil }
            state.received += data.count
            if let limit = maximumResponseDataSize, state.received > limit {
                state.failure = .responseTooLarge(limit: limit)
                tasks[dataTask.taskIdentifier] = state
                return nil
            }
            tasks[dataTask.taskIdentifier] = state
            guard let response = state.response ?? dataTask.response else { return nil }
            return (state.handlers, response)
        }
        if let (handlers, response) = delivery {
            handlers.didReceiveData(data, response)
        } else if case .responseTooLarge? = tasks.withLock({ $0[dataTask.taskIdentifier]?.failure }) {
            SessionCallbackQueue.cancelOutside(dataTask)
        }
        // Other failures (a 401 body before its challenge) are dropped without cancelling.
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = state.failure {
            state.handlers.completion(failure)
        } else if let error {
            // A connection closed cleanly mid-body surfaces as libcurl's generic error (-1,
            // "transfer closed with N bytes remaining"): report what happened. Other errors
            // (a reset, a timeout) keep their URLError.
            if (error as NSError).code == NSURLErrorUnknown, let expected = Self.expectedIdentityLength(state.response),
                state.received < expected
            {
                state.handlers.completion(DataLoaderError.incompleteBody(received: state.received, expected: expected))
            } else {
                state.handlers.completion(error)
            }
        } else if let expected = Self.expectedIdentityLength(state.response), state.received < expected {
            state.handlers.completion(DataLoaderError.incompleteBody(received: state.received, expected: expected))
        } else {
            // An empty body has no chunk to carry its response: it gets one empty chunk
            // (DataLoading's contract), so the caller always sees the response.
            if state.received == 0, let response = state.response ?? task.response {
                state.handlers.didReceiveData(Data(), response)
            }
            state.handlers.completion(nil)
        }
    }

    /// The error of a response outside 200...299: with its `Retry-After` for 429 and 503.
    private static func failure(for response: HTTPURLResponse) -> DataLoaderError {
        let status = response.statusCode
        guard status == 429 || status == 503, let header = response.value(forHTTPHeaderField: "Retry-After"),
            let seconds = ImagePipeline.RetryPolicy.parseRetryAfter(header)
        else { return .statusCode(status) }
        return .retryAfter(statusCode: status, seconds: seconds)
    }

    /// The Content-Length when the body is not content-encoded (a compressed body's decoded
    /// length differs from its Content-Length).
    private static func expectedIdentityLength(_ response: URLResponse?) -> Int? {
        guard let http = response as? HTTPURLResponse, http.expectedContentLength >= 0 else { return nil }
        let encoding = (http.value(forHTTPHeaderField: "Content-Encoding") ?? "identity").lowercased()
        return encoding == "identity" ? Int(http.expectedContentLength) : nil
    }

    // MARK: Authentication

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        answer(challenge, task: task, completionHandler: completionHandler)
    }

    func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        answer(challenge, task: nil, completionHandler: completionHandler)
    }

    /// Answers on a Dispatch worker: the credential provider is the adopter's code, which must
    /// not run on URLSession's work queue (see ``SessionCallbackQueue``).
    private func answer(
        _ challenge: URLAuthenticationChallenge, task: URLSessionTask?,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let call = ChallengeCall(challenge: challenge, task: task, completionHandler: completionHandler)
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            self.answerNow(call.challenge, task: call.task, completionHandler: call.completionHandler)
        }
    }

    private func answerNow(
        _ challenge: URLAuthenticationChallenge, task: URLSessionTask?,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let method = challenge.protectionSpace.authenticationMethod
        if method == "NSURLAuthenticationMethodServerTrust" {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        // A repeated challenge means the credential was refused: stop instead of looping.
        if challenge.previousFailureCount == 0, let credential = credentialProvider?(challenge, task?.originalRequest) {
            completionHandler(.useCredential, credential)
            return
        }
        if let task {
            let status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401
            fail(task, .statusCode(status))
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    // MARK: Redirects

    /// Follows redirects as ``RedirectPolicy`` decides: credentials never cross to another
    /// origin, and https → http is refused unless the policy allows it (the load then fails
    /// with ``DataLoaderError/insecureRedirect(from:to:)``).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let previous = response.url ?? task.currentRequest?.url
        switch redirectPolicy.decide(from: previous, original: task.originalRequest?.url, to: request) {
        case .follow(let request):
            completionHandler(request)
        case .refuse:
            if let previous, let target = request.url { fail(task, .insecureRedirect(from: previous, to: target)) }
            completionHandler(nil)
            SessionCallbackQueue.cancelOutside(task)
        }
    }
}

/// An authentication challenge answered on a worker. `@unchecked Sendable`: the delegate
/// protocol's completion handler is not `@Sendable`, though URLSession accepts its call from any
/// thread (the challenge and the task are Sendable).
private struct ChallengeCall: @unchecked Sendable {
    let challenge: URLAuthenticationChallenge
    let task: URLSessionTask?
    let completionHandler: (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
}
