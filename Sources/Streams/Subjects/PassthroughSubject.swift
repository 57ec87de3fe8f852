/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike ``CurrentValueSubject`` it has no initial value or buffer: a value sent while a
/// subscriber has no outstanding demand is dropped for that subscriber. After a completion,
/// later sends are ignored and new subscribers receive the completion at once.
///
/// Thread-safety: `send` may be called from any thread. The subscriber list, the completion and
/// the upstreams (every stored `var`) live under one mutex; each subscriber's deliveries are
/// serialised by its own conduit and made outside any lock. The subscriber list is an array of
/// a non-generic class and the completion has a separate flag, so that the bookkeeping, which
/// runs unspecialised, instantiates no generic metadata; `send` is inlinable.
public final class PassthroughSubject<Output, Failure: Error>: Subject, SubjectUpstreamsHolder, SubjectConduitOwner,
    @unchecked Sendable
{
    @usableFromInline let mutex = RawMutex()
    /// Every element is a `SubjectConduitBase<Output, Failure>`, in subscription order.
    @exclusivity(unchecked) @usableFromInline var conduits: [SubjectConduitRoot] = []
    @exclusivity(unchecked) @usableFromInline var completed = false
    /// Set with `completed`; read only once it is set.
    @exclusivity(unchecked) var completion: Subscribers.Completion<Failure>?
    @exclusivity(unchecked) var upstreams = SubjectUpstreams()

    /// Creates a subject with no subscribers.
    public init() {}

    /// A subject that is gone can send nothing more: its subscribers are let go of (they keep
    /// their subscription, which no longer delivers anything), so none stays in a cycle with it.
    deinit {
        for conduit in conduits {
            conduit.release()
        }
        mutex.destroy()
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
        mutex.lock()
        guard completed, let completion else {
            conduits.append(conduit)
            mutex.unlock()
            conduit.start()
            return
        }
        mutex.unlock()
        conduit.reject(completion)
    }

    /// Sends a value to every subscriber that has outstanding demand.
    @inlinable
    public func send(_ input: Output) {
        mutex.lock()
        let conduits = completed ? [] : self.conduits
        mutex.unlock()
        for conduit in conduits {
            unsafeDowncast(conduit, to: SubjectConduitBase<Output, Failure>.self).offerValue(input)
        }
    }

    /// Sends a completion to every subscriber; ignored if already completed.
    public func send(completion: Subscribers.Completion<Failure>) {
        mutex.lock()
        guard !completed else {
            mutex.unlock()
            return
        }
        completed = true
        self.completion = completion
        let finishing = conduits
        conduits = []
        var droppedUpstreams = SubjectUpstreams()
        swap(&droppedUpstreams, &upstreams)
        mutex.unlock()
        _ = droppedUpstreams  // released outside the lock
        for conduit in finishing {
            unsafeDowncast(conduit, to: SubjectConduitBase<Output, Failure>.self).finish(completion)
        }
    }

    /// Keeps the upstream subscription and asks it for `.unlimited` once a subscriber has
    /// demanded values (at once if one already has); cancels it if the subject has completed.
    public func send(subscription: Subscription) {
        if !acceptUpstream(subscription) { subscription.cancel() }
    }

    func withUpstreams(_ body: (inout SubjectUpstreams, _ completed: Bool) -> Void) {
        mutex.lock()
        body(&upstreams, completed)
        mutex.unlock()
    }

    @usableFromInline
    func conduitDemanded() {
        downstreamDemanded()
    }

    @usableFromInline
    func detach(_ conduit: AnyObject) {
        mutex.lock()
        var removed: SubjectConduitRoot?
        if let index = conduits.firstIndex(where: { $0 === conduit }) {
            removed = conduits.remove(at: index)
        }
        mutex.unlock()
        _ = removed  // released outside the lock
    }
}
