import Foundation

/// Nuke 4's promise: a value (or an error) that arrives later, observed with callbacks.
///
/// - The init closure runs synchronously; the first `fulfill` or `reject` wins, later ones are
///   ignored.
/// - Every callback is dispatched asynchronously on its queue, also when the promise is already
///   resolved. The default queue is ``Nuke/callbackQueue`` (`.main` unless changed): a Linux
///   program must drain the main queue (`dispatchMain()` or a RunLoop) to receive callbacks.
/// - `then` with a `Void` closure, `then(fulfilment:rejection:)` and `catch` observe and return
///   **self**; `then` returning a value or a promise makes a new promise and passes rejections
///   through; `recover` is the only way back from an error.
///
/// Thread-safe: resolve and observe from any thread.
// Callbacks run outside the lock.
public final class Promise<T>: Sendable {
    private enum State {
        case pending([(PromiseResolution<T>) -> Void])
        case resolved(PromiseResolution<T>)
    }

    private let state: LockedValue<State>

    /// Creates a promise and runs `closure` at once, on the calling thread, with the functions
    /// that resolve it.
    public init(_ closure: (_ fulfill: @escaping (T) -> Void, _ reject: @escaping (Error) -> Void) -> Void) {
        state = LockedValue(.pending([]))
        closure({ self.resolve(.fulfilled($0)) }, { self.resolve(.rejected($0)) })
    }

    /// Creates a promise fulfilled with `value`.
    public init(value: T) {
        state = LockedValue(.resolved(.fulfilled(value)))
    }

    /// Creates a promise rejected with `error`.
    public init(error: Error) {
        state = LockedValue(.resolved(.rejected(error)))
    }

    /// `true` until the promise is fulfilled or rejected.
    public var isPending: Bool { resolution == nil }

    /// How the promise ended, or `nil` while pending.
    public var resolution: PromiseResolution<T>? {
        state.withLock { state in
            if case .resolved(let resolution) = state { return resolution }
            return nil
        }
    }

    /// Calls `closure` with the resolution, asynchronously on `queue`.
    public func completion(
        on queue: DispatchQueue = Nuke.callbackQueue, _ closure: @escaping (PromiseResolution<T>) -> Void
    ) {
        let handler = Unchecked(closure)
        let deliver: (PromiseResolution<T>) -> Void = { resolution in
            let box = Unchecked(resolution)
            queue.async { handler.value(box.value) }
        }
        observe(deliver)
    }

    /// Observes the promise: `fulfilment` gets the value, `rejection` the error, on `queue`.
    /// Returns self.
    @discardableResult
    public func then(
        on queue: DispatchQueue = Nuke.callbackQueue, fulfilment: ((T) -> Void)?, rejection: ((Error) -> Void)?
    ) -> Promise<T> {
        completion(on: queue) { resolution in
            switch resolution {
            case .fulfilled(let value): fulfilment?(value)
            case .rejected(let error): rejection?(error)
            }
        }
        return self
    }

    /// Observes the value on `queue`. Returns self.
    @discardableResult
    public func then(on queue: DispatchQueue = Nuke.callbackQueue, _ closure: @escaping (T) -> Void) -> Promise<T> {
        then(on: queue, fulfilment: closure, rejection: nil)
    }

    /// Maps the value on `queue` into a new promise; a rejection passes through unchanged.
    @discardableResult
    public func then<U>(on queue: DispatchQueue = Nuke.callbackQueue, _ closure: @escaping (T) -> U) -> Promise<U> {
        Promise<U> { fulfill, reject in
            completion(on: queue) { resolution in
                switch resolution {
                case .fulfilled(let value): fulfill(closure(value))
                case .rejected(let error): reject(error)
                }
            }
        }
    }

    /// Chains the promise `closure` makes from the value (run on `queue`); a rejection passes
    /// through unchanged.
    @discardableResult
    public func then<U>(on queue: DispatchQueue = Nuke.callbackQueue, _ closure: @escaping (T) -> Promise<U>)
        -> Promise<U>
    {
        Promise<U> { fulfill, reject in
            completion(on: queue) { resolution in
                switch resolution {
                case .fulfilled(let value): closure(value).adopt(fulfill, reject)
                case .rejected(let error): reject(error)
                }
            }
        }
    }

    /// Observes the error on `queue`. Returns self.
    @discardableResult
    public func `catch`(on queue: DispatchQueue = Nuke.callbackQueue, _ closure: @escaping (Error) -> Void) -> Promise<
        T
    > {
        then(on: queue, fulfilment: nil, rejection: closure)
    }

    /// Replaces a rejection with the promise `closure` makes from the error (run on `queue`); a
    /// value passes through unchanged.
    @discardableResult
    public func recover(on queue: DispatchQueue = Nuke.callbackQueue, _ closure: @escaping (Error) -> Promise<T>)
        -> Promise<T>
    {
        Promise { fulfill, reject in
            completion(on: queue) { resolution in
                switch resolution {
                case .fulfilled(let value): fulfill(value)
                case .rejected(let error): closure(error).adopt(fulfill, reject)
                }
            }
        }
    }

    /// Resolves the promise unless it already is, then runs the waiting handlers (outside the
    /// lock).
    private func resolve(_ resolution: PromiseResolution<T>) {
        let handlers: [(PromiseResolution<T>) -> Void] = state.withLock { state in
            guard case .pending(let handlers) = state else { return [] }
            state = .resolved(resolution)
            return handlers
        }
        for handler in handlers { handler(resolution) }
    }

    /// Forwards this promise's resolution to another one, without a queue hop of its own.
    private func adopt(_ fulfill: @escaping (T) -> Void, _ reject: @escaping (Error) -> Void) {
        let forward: (PromiseResolution<T>) -> Void = { resolution in
            switch resolution {
            case .fulfilled(let value): fulfill(value)
            case .rejected(let error): reject(error)
            }
        }
        observe(forward)
    }

    /// Runs `handler` with the resolution: at once when resolved, else when resolved (on the
    /// resolving thread). Never under the lock.
    private func observe(_ handler: @escaping (PromiseResolution<T>) -> Void) {
        let resolved: PromiseResolution<T>? = state.withLock { state in
            switch state {
            case .pending(let handlers):
                state = .pending(handlers + [handler])
                return nil
            case .resolved(let resolution):
                return resolution
            }
        }
        if let resolved { handler(resolved) }
    }
}
