import Locking

/// The engine behind operators that reduce the whole upstream into at most one value
/// (first, last, collect, reduce, count, contains, allSatisfy, min/max and their `try` forms).
///
/// The upstream is asked for `.unlimited` values. The accumulator is touched only from the
/// upstream's serialised calls. When the reduction ends (the upstream finished, or `reduce`
/// reported it is done — then the upstream is cancelled) the result is delivered, followed by
/// `.finished`, as soon as the downstream has demanded a value; failures are forwarded at once.
/// A `reduce` that throws (the `try` operators) ends the stream the same way: the upstream is
/// cancelled and the error forwarded.
///
/// Thread-safety: the upstream subscription, the downstream, the result and the demand flag live
/// in a lock that is never held while calling out. Both ends are dropped when the stream ends.
final class Reducer<UpstreamOutput, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    typealias Input = UpstreamOutput
    typealias Failure = UpstreamFailure
    typealias Output = Downstream.Input

    private struct State {
        var upstream: Subscription?
        var result: Output?
        var resultReady = false
        var demanded = false
        /// Set once the upstream's subscription has arrived (it stays set after the end).
        var subscribed = false
        /// Dropped when the stream ends (result delivered, failure, or cancel).
        var downstream: Downstream?
        var terminated: Bool { downstream == nil }
    }

    private let state: Locked<State>
    private let reduce: (inout Output?, UpstreamOutput) throws(Downstream.Failure) -> Bool
    private let mapFailure: (UpstreamFailure) -> Downstream.Failure
    private var accumulator: Output?  // upstream's serialised calls only
    private var reducing = true  // upstream's serialised calls only
    private let initial: Output?
    /// The mirror's children for operators whose debugger view Combine shapes differently
    /// (collect shows only a count); `nil` gives the reduce-like view.
    private let reflect: ((Output?) -> [Mirror.Child])?
    let description: String

    init(
        downstream: Downstream,
        name: String,
        initial: Output?,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        reflect: ((Output?) -> [Mirror.Child])? = nil,
        reduce: @escaping (inout Output?, UpstreamOutput) throws(Downstream.Failure) -> Bool
    ) {
        self.state = Locked(State(downstream: downstream))
        self.description = name
        self.initial = initial
        self.reflect = reflect
        self.accumulator = initial
        self.mapFailure = mapFailure
        self.reduce = reduce
    }

    func receive(subscription: Subscription) {
        let downstream = state.withLock { state -> Downstream? in
            guard !state.terminated, !state.subscribed else { return nil }
            state.upstream = subscription
            state.subscribed = true
            return state.downstream
        }
        guard let downstream else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    var playgroundDescription: Any { description }

    /// Combine's view of a reducing subscription: the downstream, the result so far (known here
    /// once the reduction has ended: the accumulator belongs to the upstream's calls), the
    /// initial value and where the subscription stands.
    var customMirror: Mirror {
        let (downstream, result, status) = state.withLock { state -> (Downstream?, Output?, String) in
            let status = state.terminated ? "terminal" : state.subscribed ? "subscribed" : "awaitingSubscription"
            return (state.downstream, state.result, status)
        }
        if let reflect { return Mirror(self, children: reflect(result)) }
        let children: [Mirror.Child] = [
            ("downstream", downstream.map { $0 as Any } ?? "nil"),
            ("result", result as Any),
            ("initial", initial as Any),
            ("status", status),
        ]
        return Mirror(self, children: children)
    }

    func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
        // Values before the subscription break the contract; Combine ignores them here.
        guard reducing, state.withLock({ $0.subscribed }) else { return .none }
        let done: Bool
        do {
            done = try reduce(&accumulator, input)
        } catch {
            reducing = false
            accumulator = nil
            takeUpstream()?.cancel()
            fail(error)
            return .none
        }
        if done {
            reducing = false
            takeUpstream()?.cancel()
            finish()
        }
        return .none
    }

    private func takeUpstream() -> Subscription? {
        state.withLock { state -> Subscription? in
            defer { state.upstream = nil }
            return state.upstream
        }
    }

    private func fail(_ error: Downstream.Failure) {
        let downstream = state.withLock { state -> Downstream? in
            defer {
                state.downstream = nil
                state.upstream = nil
            }
            return state.downstream
        }
        downstream?.receive(completion: .failure(error))
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard reducing else { return }
        reducing = false
        switch completion {
        case .finished:
            finish()
        case .failure(let error):
            accumulator = nil
            fail(mapFailure(error))
        }
    }

    private func finish() {
        let result = accumulator
        accumulator = nil
        state.withLock { state in
            state.result = result
            state.resultReady = true
            state.upstream = nil
        }
        deliverIfReady()
    }

    private func deliverIfReady() {
        let ready = state.withLock { state -> (Downstream, Output?)? in
            guard state.resultReady, state.demanded, let downstream = state.downstream else { return nil }
            defer {
                state.downstream = nil
                state.result = nil
            }
            return (downstream, state.result)
        }
        guard let (downstream, result) = ready else { return }
        if let result { _ = downstream.receive(result) }
        downstream.receive(completion: .finished)
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        state.withLock { $0.demanded = true }
        deliverIfReady()
    }

    func cancel() {
        let ended = state.withLock { state -> (Subscription?, Downstream?) in
            // A cancel before the upstream's subscription has nothing to cancel yet: Combine
            // ignores it, and the upstream is then subscribed as usual.
            if !state.subscribed { return (nil, nil) }
            defer {
                state.downstream = nil
                state.upstream = nil
                state.result = nil
            }
            return (state.upstream, state.downstream)
        }
        // The downstream is released when `ended` goes, outside the lock.
        ended.0?.cancel()
    }
}

extension Publisher {
    /// Subscribes a ``Reducer`` starting from `initial` (`nil`: no result unless `reduce` sets
    /// one); `reduce` returns `true` when the result is final.
    func subscribeReducing<S: Subscriber>(
        _ subscriber: S,
        name: String,
        initial: S.Input?,
        mapFailure: @escaping (Failure) -> S.Failure,
        reduce: @escaping (inout S.Input?, Output) throws(S.Failure) -> Bool
    ) {
        subscribe(
            Reducer<Output, Failure, S>(
                downstream: subscriber, name: name, initial: initial, mapFailure: mapFailure, reduce: reduce))
    }
}
