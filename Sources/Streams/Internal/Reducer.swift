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
    CustomStringConvertible, @unchecked Sendable
{
    typealias Input = UpstreamOutput
    typealias Failure = UpstreamFailure
    typealias Output = Downstream.Input

    private struct State {
        var upstream: Subscription?
        var result: Output?
        var resultReady = false
        var demanded = false
        /// Dropped when the stream ends (result delivered, failure, or cancel).
        var downstream: Downstream?
        var terminated: Bool { downstream == nil }
    }

    private let state: Locked<State>
    private let reduce: (inout Output?, UpstreamOutput) throws(Downstream.Failure) -> Bool
    private let mapFailure: (UpstreamFailure) -> Downstream.Failure
    private var accumulator: Output?  // upstream's serialised calls only
    private var reducing = true  // upstream's serialised calls only
    let description: String

    init(
        downstream: Downstream,
        name: String,
        initial: Output?,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        reduce: @escaping (inout Output?, UpstreamOutput) throws(Downstream.Failure) -> Bool
    ) {
        self.state = Locked(State(downstream: downstream))
        self.description = name
        self.accumulator = initial
        self.mapFailure = mapFailure
        self.reduce = reduce
    }

    func receive(subscription: Subscription) {
        let downstream = state.withLock { state -> Downstream? in
            guard !state.terminated, state.upstream == nil else { return nil }
            state.upstream = subscription
            return state.downstream
        }
        guard let downstream else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
        guard reducing else { return .none }
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
        subscribe(Reducer<Output, Failure, S>(downstream: subscriber, name: name, initial: initial, mapFailure: mapFailure, reduce: reduce))
    }
}
