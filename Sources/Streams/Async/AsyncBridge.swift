import Locking

/// Moves a value into a continuation. Sound because the bridge hands each value to exactly one
/// waiting task and keeps no reference to it afterwards.
struct UnsafeTransfer<Value>: @unchecked Sendable {
    let value: Value
}

/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``.
///
/// It requests one value per call to ``next(isolation:)`` and suspends the caller until that
/// value (or the completion) arrives. Several tasks may wait on one iterator at once; they are
/// served in the order they called. Cancelling an awaiting task cancels the subscription and
/// ends the sequence (`nil`) for every waiter. Thread-safety: the subscription, the waiting continuation and the
/// terminal result live in a lock; continuations are resumed outside it.
final class AsyncBridge<Output, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible, @unchecked Sendable {
    typealias Input = Output
    typealias Element = Result<Output?, Failure>
    typealias Continuation = CheckedContinuation<UnsafeTransfer<Element>, Never>

    private struct State {
        var subscription: Subscription?
        var pendingRequests = 0
        /// Callers of `next()` waiting for a value, oldest first (one iterator may be shared by
        /// several tasks).
        var waiting: [Continuation] = []
        var buffered: [Output] = []
        var terminal: Element?
        var isCancelled = false
    }

    private enum Step {
        case resume(Element)
        case request(Subscription?)
    }

    private let state = Locked(State())

    var description: String { "AsyncBridge" }

    func receive(subscription: Subscription) {
        let pending = state.withLock { state -> Int? in
            guard !state.isCancelled, state.terminal == nil, state.subscription == nil else { return nil }
            state.subscription = subscription
            defer { state.pendingRequests = 0 }
            return state.pendingRequests
        }
        guard let pending else {
            subscription.cancel()
            return
        }
        if pending > 0 { subscription.request(.max(pending)) }
    }

    func receive(_ input: Output) -> Subscribers.Demand {
        var unwanted = false
        let (waiting, early) = state.withLock { state -> ([Continuation], Bool) in
            guard !state.isCancelled else { return ([], false) }
            if state.subscription == nil, state.terminal == nil {
                // A value before the subscription breaks the contract. As Combine does, it is
                // dropped and every caller waiting on `next()` gets `nil` (none is left waiting
                // on an upstream that broke the rules); their requests still go to the
                // subscription if it comes.
                defer { state.waiting = [] }
                return (state.waiting, true)
            }
            // After the completion nothing more counts.
            guard state.terminal == nil else { return ([], false) }
            guard !state.waiting.isEmpty else {
                // Every `next()` asks for one value: one that nobody waits for was not
                // demanded. Combine's debug builds trap on it; release builds keep it for the
                // next call.
                unwanted = true
                state.buffered.append(input)
                return ([], false)
            }
            return ([state.waiting.removeFirst()], false)
        }
        if unwanted {
            assertionFailure("A value arrived that was not demanded, which breaks the contract")
        }
        for continuation in waiting {
            continuation.resume(returning: UnsafeTransfer(value: early ? .success(nil) : .success(input)))
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let result: Element
        switch completion {
        case .finished: result = .success(nil)
        case .failure(let error): result = .failure(error)
        }
        let waiting = state.withLock { state -> [Continuation] in
            guard state.terminal == nil else { return [] }
            state.subscription = nil
            defer { state.waiting = [] }
            // The oldest waiter gets the result; a failure is reported once.
            state.terminal = state.waiting.isEmpty ? result : .success(nil)
            return state.waiting
        }
        for (index, continuation) in waiting.enumerated() {
            continuation.resume(returning: UnsafeTransfer(value: index == 0 ? result : .success(nil)))
        }
    }

    func cancel() {
        let (subscription, waiting) = state.withLock { state -> (Subscription?, [Continuation]) in
            state.isCancelled = true
            if state.terminal == nil { state.terminal = .success(nil) }
            state.buffered = []
            defer {
                state.subscription = nil
                state.waiting = []
            }
            return (state.subscription, state.waiting)
        }
        subscription?.cancel()
        for continuation in waiting {
            continuation.resume(returning: UnsafeTransfer(value: .success(nil)))
        }
    }

    /// Waits for the next value; `.success(nil)` at the end of the stream or after cancellation.
    func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element {
        await withTaskCancellationHandler {
            await withCheckedContinuation(isolation: actor) { (continuation: Continuation) in
                let step = state.withLock { state -> Step in
                    if !state.buffered.isEmpty { return .resume(.success(state.buffered.removeFirst())) }
                    if let terminal = state.terminal {
                        // A failure is reported once; afterwards the sequence just ends.
                        state.terminal = .success(nil)
                        return .resume(terminal)
                    }
                    state.waiting.append(continuation)
                    if state.subscription == nil { state.pendingRequests += 1 }
                    return .request(state.subscription)
                }
                switch step {
                case .resume(let element):
                    continuation.resume(returning: UnsafeTransfer(value: element))
                case .request(let subscription):
                    subscription?.request(.max(1))
                }
            }.value
        } onCancel: {
            self.cancel()
        }
    }
}
