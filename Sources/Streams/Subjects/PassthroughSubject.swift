import Locking

/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike ``CurrentValueSubject`` it has no initial value or buffer: a value sent while a
/// subscriber has no outstanding demand is dropped for that subscriber. After a completion,
/// later sends are ignored and new subscribers receive the completion at once.
///
/// Thread-safety: `send` may be called from any thread. The subscriber list lives in a lock;
/// each subscriber's deliveries are serialised by its own conduit and made outside any lock.
public final class PassthroughSubject<Output, Failure: Error>: Subject, SubjectUpstreamsHolder, SubjectConduitOwner,
    @unchecked Sendable
{
    @usableFromInline
    struct State {
        @usableFromInline var conduits: [SubjectConduitBase<Output, Failure>] = []
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        @usableFromInline var upstreams = SubjectUpstreams()

        @inlinable init() {}
    }

    @usableFromInline let state = Locked(State())

    /// Creates a subject with no subscribers.
    public init() {}

    /// A subject that is gone can send nothing more: its subscribers are let go of (they keep
    /// their subscription, which no longer delivers anything), so none stays in a cycle with it.
    deinit {
        for conduit in state.withLock({ $0.conduits }) {
            conduit.release()
        }
    }

    /// Attaches a subscriber; it receives values sent from now on, as far as it demands them.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        // The conduit is made here, in the subscriber's (specialised) code, so that its
        // delivery closure is specialised too.
        attach(SubjectConduit(downstream: subscriber, name: "PassthroughSubject"))
    }

    /// Registers a new subscriber's conduit and starts it (or rejects it after a completion).
    @usableFromInline
    func attach(_ conduit: SubjectConduitBase<Output, Failure>) {
        conduit.owner = self
        let completion = state.withLock { state -> Subscribers.Completion<Failure>? in
            if state.completion == nil { state.conduits.append(conduit) }
            return state.completion
        }
        if let completion {
            conduit.reject(completion)
        } else {
            conduit.start()
        }
    }

    /// Sends a value to every subscriber that has outstanding demand.
    @inlinable
    public func send(_ input: Output) {
        let conduits = state.withLock { state in
            state.completion == nil ? state.conduits : []
        }
        for conduit in conduits {
            conduit.offerValue(input)
        }
    }

    /// Sends a completion to every subscriber; ignored if already completed.
    public func send(completion: Subscribers.Completion<Failure>) {
        let conduits = state.withLock { state -> [SubjectConduitBase<Output, Failure>] in
            guard state.completion == nil else { return [] }
            state.completion = completion
            state.upstreams.removeAll()
            defer { state.conduits = [] }
            return state.conduits
        }
        for conduit in conduits {
            conduit.finish(completion)
        }
    }

    /// Keeps the upstream subscription and asks it for `.unlimited` once a subscriber has
    /// demanded values (at once if one already has); cancels it if the subject has completed.
    public func send(subscription: Subscription) {
        if !acceptUpstream(subscription) { subscription.cancel() }
    }

    func withUpstreams<R>(_ body: (inout SubjectUpstreams, _ completed: Bool) -> R) -> R {
        state.withLock { state in body(&state.upstreams, state.completion != nil) }
    }

    @usableFromInline
    func conduitDemanded() {
        downstreamDemanded()
    }

    @usableFromInline
    func detach(_ conduit: AnyObject) {
        let removed = state.withLock { state -> SubjectConduitBase<Output, Failure>? in
            guard let index = state.conduits.firstIndex(where: { $0 === conduit }) else { return nil }
            return state.conduits.remove(at: index)
        }
        _ = removed
    }
}
