import Comet
import Foundation
import Locking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession delegate behind ``SourceFetcher``: routes each task's events to its handlers,
/// enforces status, size and redirect rules, and re-checks the source policy for every
/// redirect target before following it. State is guarded by a mutex; handlers are called
/// outside it.
final class SourceFetcherDelegate: NSObject, URLSessionDataDelegate, Sendable {
    struct Handlers: Sendable {
        let didReceiveData: @Sendable (Data, URLResponse) -> Void
        let completion: @Sendable ((any Error)?) -> Void
    }

    private struct TaskState {
        let handlers: Handlers
        // URLResponse is immutable once delivered; corelibs-foundation does not mark it Sendable.
        nonisolated(unsafe) var response: URLResponse?
        var received = 0
        var redirects = 0
        var failure: (any Error)?
    }

    private let policy: SourcePolicy
    private let limits: SourceFetchLimits
    private let validators: SourceValidators
    private let tasks = Locked<[Int: TaskState]>([:])

    init(policy: SourcePolicy, limits: SourceFetchLimits, validators: SourceValidators) {
        self.policy = policy
        self.limits = limits
        self.validators = validators
    }

    func register(_ task: URLSessionTask, handlers: Handlers) {
        tasks.withLock { $0[task.taskIdentifier] = TaskState(handlers: handlers) }
    }

    func unregister(_ task: URLSessionTask) {
        _ = tasks.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }

    /// Records why a task is being cancelled (the first reason stays).
    private func fail(_ task: URLSessionTask, _ error: any Error) {
        tasks.withLock { tasks in
            if tasks[task.taskIdentifier]?.failure == nil { tasks[task.taskIdentifier]?.failure = error }
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
            fail(dataTask, DataLoaderError.statusCode(http.statusCode))
            completionHandler(.cancel)
            return
        }
        if response.expectedContentLength > Int64(limits.maximumBytes) {
            fail(dataTask, DataLoaderError.responseTooLarge(limit: limits.maximumBytes))
            completionHandler(.cancel)
            return
        }
        if let http = response as? HTTPURLResponse, let original = dataTask.originalRequest?.url?.absoluteString {
            validators.record(http.value(forHTTPHeaderField: "ETag") ?? http.value(forHTTPHeaderField: "Last-Modified"),
                              for: original)
        }
        tasks.withLock { $0[dataTask.taskIdentifier]?.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let delivery: (Handlers, URLResponse)?? = tasks.withLock { tasks in
            guard var state = tasks[dataTask.taskIdentifier], state.failure == nil else { return .some(nil) }
            state.received += data.count
            if state.received > limits.maximumBytes {
                state.failure = DataLoaderError.responseTooLarge(limit: limits.maximumBytes)
                tasks[dataTask.taskIdentifier] = state
                return nil
            }
            tasks[dataTask.taskIdentifier] = state
            guard let response = state.response ?? dataTask.response else { return .some(nil) }
            return (state.handlers, response)
        }
        switch delivery {
        case .some(.some(let (handlers, response))): handlers.didReceiveData(data, response)
        case .none: dataTask.cancel()
        case .some(.none): break
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = state.failure {
            state.handlers.completion(failure)
        } else if let error {
            state.handlers.completion(error)
        } else if let http = state.response as? HTTPURLResponse, http.expectedContentLength >= 0,
                  (http.value(forHTTPHeaderField: "Content-Encoding") ?? "identity").lowercased() == "identity",
                  state.received < Int(http.expectedContentLength) {
            state.handlers.completion(DataLoaderError.incompleteBody(received: state.received, expected: Int(http.expectedContentLength)))
        } else {
            state.handlers.completion(nil)
        }
    }

    /// Follows a redirect only within ``SourceFetchLimits/maximumRedirects`` and only to a
    /// target the policy allows (made canonical, resolved and classed like the first URL), in
    /// its canonical form.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        let answer = RedirectAnswer(completionHandler: completionHandler, task: task)
        let count: Int? = tasks.withLock { tasks in
            guard var state = tasks[task.taskIdentifier] else { return nil }
            state.redirects += 1
            tasks[task.taskIdentifier] = state
            return state.redirects
        }
        guard let count, let target = request.url else {
            answer.refuse()
            return
        }
        guard count <= limits.maximumRedirects else {
            fail(task, ServiceError.sourceError("the source redirected more than \(limits.maximumRedirects) times"))
            answer.refuse()
            return
        }
        let policy = policy
        Task {
            do {
                // The target is fetched in the canonical form the policy checked.
                var canonical = request
                canonical.url = try await policy.check(target)
                answer.follow(canonical)
            } catch {
                self.fail(task, error)
                answer.refuse()
            }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        let isServerTrust = challenge.protectionSpace.authenticationMethod == "NSURLAuthenticationMethodServerTrust"
        completionHandler(isServerTrust ? .performDefaultHandling : .cancelAuthenticationChallenge, nil)
    }
}

/// A redirect decision made later, on another thread, than URLSession asked for it.
private struct RedirectAnswer: @unchecked Sendable {
    // URLSession's handler and task may be called from any thread; neither is marked Sendable.
    let completionHandler: (URLRequest?) -> Void
    let task: URLSessionTask

    func follow(_ request: URLRequest) { completionHandler(request) }

    func refuse() {
        completionHandler(nil)
        task.cancel()
    }
}
