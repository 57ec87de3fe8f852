/// The engine behind operators that reduce the whole upstream into at most one value
/// (``Publishers/First``, ``Publishers/FirstWhere``, ``Publishers/Collect``).
///
/// The upstream is asked for `.unlimited` values. The accumulator is touched only from the
/// upstream's serialised calls. When the reduction ends (the upstream finished, or `reduce`
/// reported it is done — then the upstream is cancelled) the result is delivered, followed by
/// `.finished`, as soon as the downstream has demanded a value; failures are forwarded at once.
///
/// Thread-safety: the upstream subscription, the result and the demand flag live in a lock that
/// is never held while calling out.
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
        var terminated = false
    }

    private let state = Locked(State())
    private let downstream: Downstream
    private let reduce: (inout Output?, UpstreamOutput) -> Bool
    private let mapFailure: (UpstreamFailure) -> Downstream.Failure
    private var accumulator: Output?  // upstream's serialised calls only
    private var reducing = true  // upstream's serialised calls only
    let description: String

    init(
        downstream: Downstream,
        name: String,
        initial: Output?,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        reduce: @escaping (inout Output?, UpstreamOutput) -> Bool
    ) {
        self.downstream = downstream
        self.description = name
        self.accumulator = initial
        self.mapFailure = mapFailure
        self.reduce = reduce
    }

    func receive(subscription: Subscription) {
        let accepted = state.withLock { state -> Bool in
            guard !state.terminated, state.upstream == nil else { return false }
            state.upstream = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
        guard reducing else { return .none }
        if reduce(&accumulator, input) {
            reducing = false
            let upstream = state.withLock { state -> Subscription? in
                defer { state.upstream = nil }
                return state.upstream
            }
            upstream?.cancel()
            finish()
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard reducing else { return }
        reducing = false
        switch completion {
        case .finished:
            finish()
        case .failure(let error):
            let live = state.withLock { state -> Bool in
                defer {
                    state.terminated = true
                    state.upstream = nil
                }
                return !state.terminated
            }
            if live { downstream.receive(completion: .failure(mapFailure(error))) }
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
        let ready = state.withLock { state -> (Bool, Output?) in
            guard state.resultReady, state.demanded, !state.terminated else { return (false, nil) }
            state.terminated = true
            defer { state.result = nil }
            return (true, state.result)
        }
        guard ready.0 else { return }
        if let value = ready.1 { _ = downstream.receive(value) }
        downstream.receive(completion: .finished)
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        state.withLock { $0.demanded = true }
        deliverIfReady()
    }

    func cancel() {
        let upstream = state.withLock { state -> Subscription? in
            state.terminated = true
            defer { state.upstream = nil }
            return state.upstream
        }
        upstream?.cancel()
    }
}
