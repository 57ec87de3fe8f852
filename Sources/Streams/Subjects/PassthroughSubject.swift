/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike ``CurrentValueSubject`` it has no initial value or buffer: a value sent while a
/// subscriber has no outstanding demand is dropped for that subscriber. After a completion,
/// later sends are ignored and new subscribers receive the completion at once.
///
/// Thread-safety: `send` may be called from any thread. The subscriber list, the completion and
/// the upstreams live under one mutex (in a `SubjectCore`, which its subscribers report to
/// instead of holding the subject); each subscriber's deliveries are serialised by its own
/// conduit and made outside any lock. `send` is inlinable, so it runs specialised.
public final class PassthroughSubject<Output, Failure: Error>: Subject, UpstreamAcceptingSubject, @unchecked Sendable {
    @usableFromInline let core = SubjectCore()
    /// The name of each subscriber's subscription: Combine's subjects name theirs after the
    /// subject, and the publishers built on a subject (`@Published`, an observable object's
    /// publisher) after themselves. Set before the subject is shared.
    @usableFromInline var conduitName = "PassthroughSubject"
    /// Set once the subject completes; under `core.mutex`.
    @exclusivity(unchecked) var completion: Subscribers.Completion<Failure>?

    /// Creates a subject with no subscribers.
    public init() {}

    /// A subject that is gone can send nothing more: its subscribers are let go of (they keep
    /// their subscription, which no longer delivers anything), so none stays in a cycle with it.
    deinit {
        core.subjectGone()
    }

    /// Attaches a subscriber; it receives values sent from now on, as far as it demands them.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        // The conduit is made here, in the subscriber's (specialised) code, so that its
        // delivery closure is specialised too.
        attach(SubjectConduit(downstream: subscriber, name: conduitName))
    }

    /// Registers a new subscriber's conduit and starts it (or rejects it after a completion).
    @usableFromInline
    func attach(_ conduit: SubjectConduitBase<Output, Failure>) {
        core.mutex.lock()
        if core.append(conduit) {
            core.mutex.unlock()
            conduit.start()
            return
        }
        reject(conduit)
    }

    /// Hands a conduit that arrived after the completion that completion. Called with the
    /// core's mutex held; releases it. Kept apart from ``attach(_:)``: this unspecialised
    /// code reads the optional completion, whose generic metadata the common path then does
    /// not look up.
    @inline(never)
    func reject(_ conduit: SubjectConduitBase<Output, Failure>) {
        let completion = self.completion
        core.mutex.unlock()
        if let completion {
            conduit.reject(completion)
        } else {
            conduit.start()
        }
    }

    /// Sends a value to every subscriber that has outstanding demand.
    @inlinable
    public func send(_ input: Output) {
        core.mutex.lock()
        let conduits = core.isCompleted ? [] : core.conduits
        core.mutex.unlock()
        // The snapshot keeps every conduit alive for the loop: each is used without a retain.
        conduits.withUnsafeBufferPointer { conduits in
            for conduit in conduits {
                Unmanaged.passUnretained(conduit)._withUnsafeGuaranteedRef {
                    unsafeDowncast($0, to: SubjectConduitBase<Output, Failure>.self).offerValue(input)
                }
            }
        }
    }

    /// Sends a completion to every subscriber; ignored if already completed.
    public func send(completion: Subscribers.Completion<Failure>) {
        core.finish(completion, of: Output.self) { self.completion = completion }
    }

    /// Keeps the upstream subscription and asks it for `.unlimited` once a subscriber has
    /// demanded values (at once if one already has); cancels it if the subject has completed.
    public func send(subscription: Subscription) {
        if !acceptUpstream(subscription) { subscription.cancel() }
    }

    func acceptUpstream(_ subscription: Subscription) -> Bool {
        core.acceptUpstream(subscription)
    }
}
