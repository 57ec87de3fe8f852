import Locking

/// `replaceEmpty(with:)`'s subscriber and subscription (see ``Publishers/ReplaceEmpty``).
///
/// Combine's order: the downstream gets its subscription, then the upstream is asked for
/// `.unlimited`; every request of the downstream is passed on as well. An empty `.finished`
/// becomes the element and `.finished`, held until the downstream's first request if it has
/// made none. Events before the subscription or after the end reach no one; a second
/// subscription is cancelled, one after a cancel is left alone.
final class ReplaceEmptyEngine<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable,
    @unchecked Sendable
{
    // @unchecked Sendable: its state is behind its `Locked` lock; the rest is immutable.
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct State: UpstreamHolding {
        var upstream: Subscription?
        var downstream: Downstream?
        var hasReceivedValue = false
        var hasRequested = false
        /// The upstream finished empty before any request: the element waits for one.
        var hasFinishedEmpty = false
    }

    private enum CompletionOutcome { case none, forward(Downstream), replace(Downstream) }
    private enum RequestOutcome { case none, forward(Subscription), replace(Downstream) }

    private let state: Locked<State>
    private let output: Input

    init(downstream: Downstream, output: Input) {
        self.state = Locked(State(downstream: downstream))
        self.output = output
    }

    var description: String { "ReplaceEmpty" }

    func receive(subscription: Subscription) {
        let (downstream, duplicate) = state.withLock { $0.admit(subscription) }
        if duplicate { subscription.cancel() }
        guard let downstream else { return }
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let downstream = state.withLock { state -> Downstream? in
            guard state.upstream != nil, !state.hasFinishedEmpty, let downstream = state.downstream else { return nil }
            state.hasReceivedValue = true
            return downstream
        }
        return downstream?.receive(input) ?? .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let outcome = state.withLock { state -> CompletionOutcome in
            guard state.upstream != nil, !state.hasFinishedEmpty, let downstream = state.downstream else {
                return .none
            }
            if case .finished = completion, !state.hasReceivedValue {
                guard state.hasRequested else {
                    state.hasFinishedEmpty = true
                    return .none
                }
                state = State()
                return .replace(downstream)
            }
            state = State()
            return .forward(downstream)
        }
        switch outcome {
        case .none:
            return
        case let .forward(downstream):
            downstream.receive(completion: completion)
        case let .replace(downstream):
            _ = downstream.receive(output)
            downstream.receive(completion: Subscribers.Completion<Failure>.finished)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        let outcome = state.withLock { state -> RequestOutcome in
            guard let downstream = state.downstream else { return .none }
            state.hasRequested = true
            if state.hasFinishedEmpty {
                state = State()
                return .replace(downstream)
            }
            return state.upstream.map(RequestOutcome.forward) ?? .none
        }
        switch outcome {
        case .none:
            return
        case let .forward(upstream):
            upstream.request(demand)
        case let .replace(downstream):
            _ = downstream.receive(output)
            downstream.receive(completion: Subscribers.Completion<Failure>.finished)
        }
    }

    func cancel() {
        let ended = state.withLock { state -> (Subscription?, Downstream?) in
            defer { state = State() }
            return (state.hasFinishedEmpty ? nil : state.upstream, state.downstream)
        }
        ended.0?.cancel()
    }
}
