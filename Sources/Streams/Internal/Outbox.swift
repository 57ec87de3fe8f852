import Locking
import Synchronization

/// Serialised, demand-respecting delivery to one downstream subscriber from many threads.
///
/// Multi-source operators (merge, flatMap, switchToLatest, combineLatest, zip) and subjects push
/// values into an outbox from whatever thread their upstreams call on. The outbox queues them,
/// and whichever thread finds it idle drains the queue: it delivers one value at a time while
/// demand lasts, **outside the lock**, so the downstream may request or cancel re-entrantly. At
/// most one thread is ever inside the downstream, so calls never overlap; a value pushed from
/// inside the downstream's own `receive(_:)` is delivered after that call returns.
///
/// The outbox is created closed: nothing (not even a completion) is delivered until ``open()``
/// is called, which the owner does right after handing the downstream its subscription.
///
/// Thread-safety: all state lives in one lock; `@unchecked Sendable` because the downstream
/// and queued values are only touched under it or by the single draining thread.
final class Outbox<Downstream: Subscriber>: @unchecked Sendable {
    typealias Input = Downstream.Input
    typealias Completion = Subscribers.Completion<Downstream.Failure>

    /// A queued value, with an action run after it has been delivered (typically "request one
    /// more from the upstream that produced it").
    struct Pending {
        let value: Input
        let afterDelivery: (() -> Void)?
    }

    private struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var queue: [Pending] = []
        var head = 0
        var completion: Completion?
        var draining = true  // closed until open()
        var missedValue = false
        var everRequested = false

        var queuedCount: Int { queue.count - head }

        mutating func popFirst() -> Pending {
            let item = queue[head]
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 32 && head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return item
        }
    }

    private let state: Locked<State>
    private let onReturnedDemand: ((Subscribers.Demand) -> Void)?

    /// - Parameter missedValue: start with the "missed" flag set, so the first request reports
    ///   a missed value (used by current-value subjects to deliver the current value).
    /// - Parameter onReturnedDemand: called (outside the lock) with each non-zero demand the
    ///   downstream returns from `receive(_:)`, after it was added to the outbox's demand; for
    ///   owners that pass demand on to their upstreams.
    init(
        _ downstream: Downstream,
        missedValue: Bool = false,
        onReturnedDemand: ((Subscribers.Demand) -> Void)? = nil
    ) {
        state = Locked(State(downstream: downstream, missedValue: missedValue))
        self.onReturnedDemand = onReturnedDemand
    }

    /// `true` once the downstream completed or cancelled.
    var isTerminated: Bool {
        state.withLock { $0.downstream == nil }
    }

    /// Starts delivery. Call once, after the downstream has received its subscription.
    func open() {
        state.withLock { $0.draining = false }
        drain()
    }

    /// Queues a value regardless of demand; it waits until the downstream demands it.
    /// Returns `false` (dropping the value) if the outbox has terminated.
    @discardableResult
    func enqueue(_ value: Input, afterDelivery: (() -> Void)? = nil) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard state.downstream != nil, state.completion == nil else { return false }
            state.queue.append(Pending(value: value, afterDelivery: afterDelivery))
            return true
        }
        if accepted { drain() }
        return accepted
    }

    /// Queues a value only if there is unreserved demand for it (subject semantics: values
    /// sent without demand are dropped). A dropped value sets the "missed" flag that
    /// ``request(_:)`` reports. Returns whether the value was accepted.
    @discardableResult
    func offer(_ value: Input) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard state.downstream != nil, state.completion == nil else { return false }
            guard state.demand > state.queuedCount else {
                state.missedValue = true
                return false
            }
            state.queue.append(Pending(value: value, afterDelivery: nil))
            return true
        }
        if accepted { drain() }
        return accepted
    }

    /// Schedules the completion after the queued values (or, with `dropPending`, instead of
    /// them). Later completions and values are ignored.
    func complete(_ completion: Completion, dropPending: Bool = false) {
        let accepted = state.withLock { state -> Bool in
            guard state.downstream != nil, state.completion == nil else { return false }
            state.completion = completion
            if dropPending {
                state.queue.removeAll()
                state.head = 0
            }
            return true
        }
        if accepted { drain() }
    }

    /// Adds downstream demand and delivers what it allows.
    ///
    /// - Returns: `firstRequest` is `true` the first time non-zero demand arrives;
    ///   `becameUnlimited` the first time the demand becomes `.unlimited`; `missed` is `true` if
    ///   ``offer(_:)`` dropped a value since the last request (the flag is cleared).
    @discardableResult
    func request(_ demand: Subscribers.Demand) -> (firstRequest: Bool, becameUnlimited: Bool, missed: Bool) {
        guard demand > 0 else { return (false, false, false) }
        let result = state.withLock { state -> (Bool, Bool, Bool) in
            guard state.downstream != nil else { return (false, false, false) }
            let wasUnlimited = state.demand == .unlimited
            state.demand += demand
            let first = !state.everRequested
            state.everRequested = true
            let missed = state.missedValue
            state.missedValue = false
            return (first, !wasUnlimited && state.demand == .unlimited, missed)
        }
        drain()
        return result
    }

    /// Drops the downstream and everything queued. Nothing more is delivered.
    func cancel() {
        let dropped = state.withLock { state -> (Downstream?, [Pending]) in
            let dropped = (state.downstream, state.queue)
            state.downstream = nil
            state.queue = []
            state.head = 0
            return dropped
        }
        _ = dropped  // released outside the lock
    }

    private enum Step {
        case deliver(Downstream, Pending)
        case complete(Downstream, Completion)
        case stop
    }

    /// Delivers queued values while demand lasts, from at most one thread at a time.
    private func drain() {
        let claimed = state.withLock { state -> Bool in
            guard !state.draining, state.downstream != nil else { return false }
            state.draining = true
            return true
        }
        guard claimed else { return }
        while true {
            let step = state.withLock { state -> Step in
                guard let downstream = state.downstream else {
                    state.draining = false
                    return .stop
                }
                if state.queuedCount > 0 && state.demand > 0 {
                    if state.demand != .unlimited { state.demand -= 1 }
                    return .deliver(downstream, state.popFirst())
                }
                if state.queuedCount == 0, let completion = state.completion {
                    state.downstream = nil
                    state.draining = false
                    return .complete(downstream, completion)
                }
                state.draining = false
                return .stop
            }
            switch step {
            case .stop:
                return
            case .complete(let downstream, let completion):
                downstream.receive(completion: completion)
                return
            case .deliver(let downstream, let pending):
                let extra = downstream.receive(pending.value)
                if extra > 0 {
                    state.withLock { $0.demand += extra }
                    onReturnedDemand?(extra)
                }
                pending.afterDelivery?()
            }
        }
    }
}
