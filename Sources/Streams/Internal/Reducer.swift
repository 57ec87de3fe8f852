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
        /// The reduction ended: `result` is final.
        var hasResult = false
        /// The downstream requested a value.
        var hasDemand = false
        var status = ReducerStatus.awaitingSubscription
        /// Dropped when the stream ends (result delivered, failure, or cancel).
        var downstream: Downstream?

        /// Ends the stream: drops both ends and the result, and hands back the downstream.
        mutating func end() -> Downstream? {
            defer {
                downstream = nil
                upstream = nil
                result = nil
                status = .terminal
            }
            return downstream
        }
    }

    private let state: Locked<State>
    private let reduce: (inout Output?, UpstreamOutput) throws(Downstream.Failure) -> Bool
    private let mapFailure: (UpstreamFailure) -> Downstream.Failure
    private var accumulator: Output?  // upstream's serialised calls only
    private var isReducing = true  // upstream's serialised calls only
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
            guard state.status == .awaitingSubscription else { return nil }
            state.upstream = subscription
            state.status = .subscribed
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
        let (downstream, result, status) = state.withLock { state in
            (state.downstream, state.result, state.status)
        }
        if let reflect { return Mirror(self, children: reflect(result)) }
        let children: [Mirror.Child] = [
            ("downstream", downstream.map { $0 as Any } ?? "nil"),
            ("result", result as Any),
            ("initial", initial as Any),
            ("status", "\(status)"),
        ]
        return Mirror(self, children: children)
    }

    func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
        // Values before the subscription break the contract; Combine ignores them here.
        guard isReducing, state.withLock({ $0.status != .awaitingSubscription }) else { return .none }
        let done: Bool
        do {
            done = try reduce(&accumulator, input)
        } catch {
            isReducing = false
            accumulator = nil
            takeUpstream()?.cancel()
            fail(error)
            return .none
        }
        if done {
            isReducing = false
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
        let downstream = state.withLock { $0.end() }
        downstream?.receive(completion: .failure(error))
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard isReducing else { return }
        isReducing = false
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
            state.hasResult = true
            state.upstream = nil
        }
        deliverIfReady()
    }

    private func deliverIfReady() {
        let ready = state.withLock { state -> (Downstream, Output?)? in
            guard state.hasResult, state.hasDemand, state.status != .terminal else { return nil }
            let result = state.result
            guard let downstream = state.end() else { return nil }
            return (downstream, result)
        }
        guard let (downstream, result) = ready else { return }
        if let result { _ = downstream.receive(result) }
        downstream.receive(completion: .finished)
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        state.withLock { $0.hasDemand = true }
        deliverIfReady()
    }

    func cancel() {
        let ended = state.withLock { state -> (Subscription?, Downstream?) in
            // A cancel before the upstream's subscription has nothing to cancel yet: Combine
            // ignores it, and the upstream is then subscribed as usual.
            guard state.status == .subscribed else { return (nil, nil) }
            let upstream = state.upstream
            return (upstream, state.end())
        }
        // The downstream is released when `ended` goes, outside the lock.
        ended.0?.cancel()
    }
}

/// Where a ``Reducer`` stands, as Combine's reducing subscriptions show it in their mirror.
private enum ReducerStatus: UInt8 {
    /// The upstream's subscription has not arrived: a cancel now is ignored, as Combine does.
    case awaitingSubscription
    /// The upstream's subscription arrived and the stream is live.
    case subscribed
    /// The result was delivered, or the stream failed or was cancelled.
    case terminal
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
