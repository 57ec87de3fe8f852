import Foundation

/// The result of a cache fetch, delivered to one success and one failure closure.
///
/// Registering a closure after the fetch resolved calls it at once (on the registering thread);
/// registering another replaces the previous one. Thread-safe.
open class Fetch<T>: @unchecked Sendable {
    // Safe: `state` and the closures live behind `lock`; closures are called after unlocking.

    /// Called with the value.
    public typealias Succeeder = (T) -> ()
    /// Called with the error (an `NSError` in ``HanekeGlobals/Domain`` or the underlying error).
    public typealias Failer = (Error?) -> ()

    private enum State {
        case pending
        case success(T)
        case failure(Error?)
    }

    private let lock = NSLock()
    private var state = State.pending
    private var succeeder: Succeeder?
    private var failer: Failer?

    /// A pending fetch.
    public init() {}

    /// Sets the success closure; calls it now if the fetch already succeeded.
    @discardableResult open func onSuccess(_ onSuccess: @escaping Succeeder) -> Self {
        let value: T? = lock.withLock {
            succeeder = onSuccess
            if case .success(let value) = state { return value }
            return nil
        }
        if let value { onSuccess(value) }
        return self
    }

    /// Sets the failure closure; calls it now if the fetch already failed.
    @discardableResult open func onFailure(_ onFailure: @escaping Failer) -> Self {
        let failed: (Error?)? = lock.withLock {
            failer = onFailure
            if case .failure(let error) = state { return .some(error) }
            return nil
        }
        if case .some(let error) = failed { onFailure(error) }
        return self
    }

    /// Whether the fetch succeeded.
    public var hasSucceeded: Bool {
        lock.withLock { if case .success = state { return true } else { return false } }
    }

    /// Whether the fetch failed.
    public var hasFailed: Bool {
        lock.withLock { if case .failure = state { return true } else { return false } }
    }

    func succeed(_ value: T) {
        let callback: Succeeder? = lock.withLock {
            guard case .pending = state else { return nil }
            state = .success(value)
            return succeeder
        }
        callback?(value)
    }

    func fail(_ error: Error?) {
        let callback: Failer? = lock.withLock {
            guard case .pending = state else { return nil }
            state = .failure(error)
            return failer
        }
        callback?(error)
    }

    /// A fetch with the given closures registered.
    static func build(failure: Failer?, success: Succeeder?) -> Fetch<T> {
        let fetch = Fetch<T>()
        if let success { fetch.onSuccess(success) }
        if let failure { fetch.onFailure(failure) }
        return fetch
    }
}
