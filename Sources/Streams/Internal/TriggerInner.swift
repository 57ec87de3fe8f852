import Locking

/// The engine behind ``Publishers/DropUntilOutput`` and ``Publishers/PrefixUntilOutput``: an
/// upstream whose values are gated by the first value of a second publisher, the trigger.
///
/// The trigger is asked for one value as soon as it subscribes and is cancelled once it has
/// produced it. In drop mode, upstream values before the trigger fires are replaced by a demand
/// of one; a trigger failure fails the stream. In prefix mode, upstream values pass until the
/// trigger fires, then the upstream is cancelled and the stream finishes (if a value is being
/// delivered at that moment, the finish follows its return, so downstream calls never overlap);
/// the trigger's completion is ignored. Downstream requests go straight to the upstream.
///
/// Thread-safety: the flags and the trigger's subscription live in a lock never held while
/// calling out; both ends of the main stream live in a ``Link``.
final class TriggerInner<Input, Failure: Error, Downstream: Subscriber>: Subscription, CombineReflectable,
    @unchecked Sendable
where Downstream.Input == Input, Downstream.Failure == Failure {
    private struct State {
        var trigger: Subscription?
        var triggered = false
        var delivering = false
        var finishPending = false
        var ended = false
        /// The trigger completed: whatever it sends afterwards breaks the contract and is
        /// ignored.
        var triggerDone = false
    }

    private let link: Link<Downstream>
    private let state = Locked(State())
    private let prefixMode: Bool
    let description: String

    init(downstream: Downstream, prefixMode: Bool) {
        // As Combine's: drop mode traps on an early value and passes an early completion on;
        // prefix mode lets early events reach no one.
        self.link = Link(
            downstream: downstream,
            early: prefixMode ? [.cancelLateSubscription] : [.trapValues, .forwardCompletion, .cancelLateSubscription]
        )
        self.prefixMode = prefixMode
        self.description = prefixMode ? "PrefixUntilOutput" : "DropUntilOutput"
    }

    var upstreamSubscriber: AnySubscriber<Input, Failure> {
        AnySubscriber(
            receiveSubscription: { [self] subscription in
                guard let downstream = link.attach(subscription) else {
                    subscription.cancel()
                    return
                }
                downstream.receive(subscription: self)
            },
            receiveValue: { [self] in upstreamValue($0) },
            receiveCompletion: { [self] completion in
                guard let downstream = link.complete() else { return }
                takeTrigger()?.cancel()
                downstream.receive(completion: completion)
            }
        )
    }

    func triggerSubscriber<Other>(_ type: Other.Type) -> AnySubscriber<Other, Failure> {
        triggerSubscriber(type, failing: Failure.self)
    }

    /// The trigger's subscriber for any failure type: in prefix mode the trigger's completion is
    /// ignored, so its failure need not be the stream's. (In drop mode it is always `Failure`.)
    func triggerSubscriber<Other, OtherFailure: Error>(_ type: Other.Type, failing: OtherFailure.Type) -> AnySubscriber<Other, OtherFailure> {
        AnySubscriber(
            receiveSubscription: { [self] subscription in
                let accepted = state.withLock { state -> Bool in
                    guard !state.ended, !state.triggered, state.trigger == nil else { return false }
                    state.trigger = subscription
                    return true
                }
                if accepted { subscription.request(.max(1)) } else { subscription.cancel() }
            },
            receiveValue: { [self] _ in
                fired()
                return .none
            },
            receiveCompletion: { [self] completion in
                let first = state.withLock { state -> Bool in
                    defer { state.triggerDone = true }
                    return !state.triggerDone
                }
                guard first else { return }
                _ = takeTrigger()
                guard !prefixMode, case .failure(let error) = completion, let error = error as? Failure else { return }
                end(with: .failure(error))
            }
        )
    }

    private func upstreamValue(_ input: Input) -> Subscribers.Demand {
        guard let downstream = link.downstream else { return .none }
        let pass = state.withLock { state -> Bool in
            guard prefixMode else { return state.triggered }
            guard !state.triggered else { return false }
            state.delivering = true
            return true
        }
        guard pass else { return prefixMode ? .none : .max(1) }
        let demand = downstream.receive(input)
        guard prefixMode else { return demand }
        let finishNow = state.withLock { state -> Bool in
            state.delivering = false
            return state.finishPending
        }
        if finishNow { end(with: .finished) }
        return demand
    }

    private func fired() {
        let (trigger, finishNow) = state.withLock { state -> (Subscription?, Bool) in
            guard !state.triggered, !state.triggerDone else { return (nil, false) }
            state.triggered = true
            defer { state.trigger = nil }
            guard prefixMode else { return (state.trigger, false) }
            if state.delivering {
                state.finishPending = true
                return (state.trigger, false)
            }
            return (state.trigger, true)
        }
        trigger?.cancel()
        if finishNow { end(with: .finished) }
    }

    private func takeTrigger() -> Subscription? {
        state.withLock { state -> Subscription? in
            defer { state.trigger = nil }
            return state.trigger
        }
    }

    /// Ends the main stream early: cancels the upstream and the trigger, then completes.
    private func end(with completion: Subscribers.Completion<Failure>) {
        guard let downstream = link.downstream, let upstream = link.cancel() else { return }
        upstream.cancel()
        takeTrigger()?.cancel()
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        link.upstream?.request(demand)
    }

    func cancel() {
        state.withLock { $0.ended = true }
        link.cancel()?.cancel()
        takeTrigger()?.cancel()
    }
}
