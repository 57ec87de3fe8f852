import Locking

extension Future {
    /// The future's value, awaited: returns once the promise is fulfilled with a value, throws
    /// its failure. If the awaiting task is cancelled first, throws `CancellationError` (Combine's
    /// waits regardless).
    public var value: Output {
        get async throws {
            let waiter = FutureWaiter<Output, Failure>()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    waiter.start(continuation)
                    subscribe(waiter)
                }.value
            } onCancel: {
                waiter.cancel()
            }
        }
    }
}

extension Future where Failure == Never {
    /// The future's value, awaited: returns once the promise is fulfilled. Like Combine's, it
    /// waits for the promise even if the awaiting task is cancelled (it has no way to throw):
    /// use `try await future.value` on a `Future` re-typed with `setFailureType` to stop on
    /// cancellation.
    public var value: Output {
        get async {
            await withCheckedContinuation { (continuation: CheckedContinuation<UnsafeTransfer<Output>, Never>) in
                subscribe(
                    Subscribers.Sink(
                        receiveCompletion: { _ in },
                        receiveValue: {
                            continuation.resume(returning: UnsafeTransfer(value: $0))
                        }))
            }.value
        }
    }
}

/// The subscriber behind `Future.value` (throwing): resumes its continuation exactly once, with
/// the value, the failure or `CancellationError`.
final class FutureWaiter<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    // @unchecked Sendable: its state is behind its `Locked` lock; the rest is immutable.
    private struct State {
        var continuation: CheckedContinuation<UnsafeTransfer<Input>, Error>?
        var subscription: Subscription?
        var isCancelled = false
    }

    private let state = Locked(State())

    func start(_ continuation: CheckedContinuation<UnsafeTransfer<Input>, Error>) {
        let cancelled = state.withLock { state -> Bool in
            if state.isCancelled { return true }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
    }

    func receive(subscription: Subscription) {
        let cancelled = state.withLock { state -> Bool in
            if state.continuation == nil { return true }
            state.subscription = subscription
            return false
        }
        if cancelled {
            subscription.cancel()
        } else {
            subscription.request(.unlimited)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        resume(with: .success(input))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        if case .failure(let error) = completion { resume(with: .failure(error)) }
    }

    func cancel() {
        let (continuation, subscription) = state.withLock {
            state -> (CheckedContinuation<UnsafeTransfer<Input>, Error>?, Subscription?) in
            state.isCancelled = true
            defer { state = State(isCancelled: true) }
            return (state.continuation, state.subscription)
        }
        subscription?.cancel()
        continuation?.resume(throwing: CancellationError())
    }

    private func resume(with result: Result<Input, Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<UnsafeTransfer<Input>, Error>? in
            defer { state = State(isCancelled: state.isCancelled) }
            return state.continuation
        }
        continuation?.resume(with: result.map { UnsafeTransfer(value: $0) })
    }
}
