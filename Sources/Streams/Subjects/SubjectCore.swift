/// The shared, untyped state of a subject: its subscribers' conduits, whether it has completed,
/// and its upstreams, under one mutex.
///
/// A conduit keeps the core (not the subject) to report its first demand and its cancellation.
/// So no subscriber holds a weak reference to its subject (a weak reference gives the subject a
/// side table, which makes every retain and release of it slower), and none keeps it alive:
/// the core and its conduits form a cycle only while the conduit is attached, broken when the
/// subscriber cancels, when the subject completes, and when the subject is gone (its `deinit`
/// lets every conduit go). Not generic, so the bookkeeping instantiates no metadata.
///
/// Thread-safety: every stored `var` is read and written only under `mutex`, which is never held
/// while calling out. The owning subject keeps its own typed state (completion, current value)
/// under the same mutex.
@usableFromInline
final class SubjectCore: @unchecked Sendable {
    @usableFromInline let mutex = RawMutex()
    /// In subscription order; each is a `SubjectConduitBase` of the subject's types.
    @exclusivity(unchecked) @usableFromInline var conduits: [SubjectConduitRoot] = []
    @exclusivity(unchecked) @usableFromInline var isCompleted = false
    @exclusivity(unchecked) var upstreams = SubjectUpstreams()

    @inlinable init() {}

    deinit {
        mutex.destroy()
    }

    /// Adds `conduit` unless the subject has completed; returns whether it was added. Call with
    /// the mutex held.
    func append(_ conduit: SubjectConduitRoot) -> Bool {
        guard !isCompleted else { return false }
        conduit.core = self
        conduits.append(conduit)
        return true
    }

    /// The subject completes: returns the conduits to finish (`nil` if it had already
    /// completed). Call with the mutex held; release what `dropped` holds outside it.
    func complete(dropped: inout SubjectUpstreams) -> [SubjectConduitRoot]? {
        guard !isCompleted else { return nil }
        isCompleted = true
        swap(&dropped, &upstreams)
        defer { conduits = [] }
        return conduits
    }

    /// Completes the subject once: `record` (run under the mutex) keeps the completion for
    /// later subscribers, then every subscriber's conduit is finished outside the lock, and the
    /// upstream subscriptions are released outside it too. Ignored if already completed.
    func finish<Output, Failure: Error>(
        _ completion: Subscribers.Completion<Failure>, of _: Output.Type, record: () -> Void
    ) {
        var droppedUpstreams = SubjectUpstreams()
        mutex.lock()
        guard let finishing = complete(dropped: &droppedUpstreams) else {
            mutex.unlock()
            return
        }
        record()
        mutex.unlock()
        _ = droppedUpstreams  // released outside the lock
        for conduit in finishing {
            unsafeDowncast(conduit, to: SubjectConduitBase<Output, Failure>.self).finish(completion)
        }
    }

    /// The subject is gone: every subscriber is let go of (each keeps its subscription, which
    /// delivers nothing more), and its upstreams are cancelled, as Combine's subjects do: nothing
    /// is left to receive what they would send.
    func subjectGone() {
        mutex.lock()
        let conduits = self.conduits
        self.conduits = []
        let upstreams = self.upstreams.takeAll()
        mutex.unlock()
        for conduit in conduits {
            conduit.release()
        }
        for upstream in upstreams {
            upstream.cancel()
        }
    }

    /// For a `CurrentValueSubject`: each upstream is asked for `.unlimited` as soon as it is
    /// attached. Call before the subject is shared.
    func startUpstreamsAtOnce() {
        upstreams.startAtOnce()
    }

    /// A subscriber demanded values for the first time: starts every upstream (once).
    @usableFromInline
    func conduitDemanded() {
        mutex.lock()
        let started = upstreams.downstreamDemanded()
        mutex.unlock()
        for subscription in started {
            subscription.request(.unlimited)
        }
    }

    /// The subscriber cancelled: forgets its conduit.
    @usableFromInline
    func detach(_ conduit: SubjectConduitRoot) {
        mutex.lock()
        var removed: SubjectConduitRoot?
        if let index = conduits.firstIndex(where: { $0 === conduit }) {
            removed = conduits.remove(at: index)
        }
        mutex.unlock()
        _ = removed  // released outside the lock
    }

    /// Keeps `subscription` (asking it for `.unlimited` once a subscriber has demanded values);
    /// `false` if the subject has completed, in which case the caller cancels it.
    func acceptUpstream(_ subscription: Subscription) -> Bool {
        mutex.lock()
        guard !isCompleted else {
            mutex.unlock()
            return false
        }
        let requestNow = upstreams.add(subscription)
        mutex.unlock()
        if requestNow { subscription.request(.unlimited) }
        return true
    }
}
