import Locking

/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// A new subscriber receives the current value as soon as it demands one, then later values as
/// far as it demands them. If values are sent while a subscriber has no demand, it receives the
/// then-current value when demand arrives (intermediate values are dropped). After a
/// completion, sends are ignored and the value no longer changes.
///
/// Thread-safety: `value` and `send` may be used from any thread; the value and subscriber list
/// live in a lock, and deliveries happen outside it, serialised per subscriber.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, SubjectUpstreamsHolder, SubjectConduitOwner,
    @unchecked Sendable
{
    @usableFromInline
    struct State {
        @usableFromInline var value: Output
        @usableFromInline var conduits: [SubjectConduitBase<Output, Failure>] = []
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        @usableFromInline var upstreams = SubjectUpstreams()

        @inlinable init(value: Output) {
            self.value = value
        }
    }

    @usableFromInline let state: Locked<State>

    /// Creates a current-value subject with the given initial value.
    public init(_ value: Output) {
        state = Locked(State(value: value))
    }

    /// A subject that is gone can send nothing more: its subscribers are let go of (they keep
    /// their subscription, which no longer delivers anything), so none stays in a cycle with it.
    deinit {
        for conduit in state.withLock({ $0.conduits }) {
            conduit.release()
        }
    }

    /// The value wrapped by this subject. Setting it is equivalent to `send(_:)`.
    public var value: Output {
        get { state.withLock { $0.value } }
        set { send(newValue) }
    }

    /// Attaches a subscriber; it receives the current value on its first demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        // Made here, in the subscriber's (specialised) code: see `PassthroughSubject`.
        attach(SubjectConduit(downstream: subscriber, name: "CurrentValueSubject", replaysCurrentValue: true))
    }

    /// Registers a new subscriber's conduit and starts it (or rejects it after a completion).
    @usableFromInline
    func attach(_ conduit: SubjectConduitBase<Output, Failure>) {
        conduit.owner = self
        conduit.currentValue = { [weak self] in self?.state.withLock { $0.completion == nil ? $0.value : nil } }
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

    /// Stores the value and sends it to every subscriber (as far as each has demand).
    @inlinable
    public func send(_ input: Output) {
        let conduits = state.withLock { state -> [SubjectConduitBase<Output, Failure>] in
            guard state.completion == nil else { return [] }
            state.value = input
            return state.conduits
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

    func withUpstreams(_ body: (inout SubjectUpstreams, _ completed: Bool) -> Void) {
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
