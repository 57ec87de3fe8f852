/// The upstream subscriptions a subject was handed through `send(subscription:)`, kept in the
/// subject's own lock.
///
/// Like Combine's subjects, a subject asks its upstreams for `.unlimited` only once one of its
/// own subscribers has demanded a value: an upstream attached before that waits, and the first
/// downstream demand starts all of them. Not thread-safe by itself; the owner guards it.
@usableFromInline
struct SubjectUpstreams {
    private var subscriptions: [Subscription] = []
    private var demanded = false

    @usableFromInline init() {}

    /// Keeps `subscription`; returns whether it should be asked for `.unlimited` now.
    mutating func add(_ subscription: Subscription) -> Bool {
        subscriptions.append(subscription)
        return demanded
    }

    /// Records the first downstream demand; returns the upstreams to ask for `.unlimited`
    /// (empty after the first call).
    mutating func downstreamDemanded() -> [Subscription] {
        guard !demanded else { return [] }
        demanded = true
        return subscriptions
    }

    /// Forgets every upstream (the subject completed).
    mutating func removeAll() {
        subscriptions = []
    }
}

/// A subject of this module that can report whether it took an upstream subscription, so
/// `publisher.subscribe(subject)` ends its link (instead of cancelling twice) when a completed
/// subject refuses it.
protocol UpstreamAcceptingSubject: AnyObject {
    /// Keeps `subscription` (asking it for `.unlimited` once a subscriber has demanded values);
    /// `false` if the subject has completed, in which case the caller cancels it.
    func acceptUpstream(_ subscription: Subscription) -> Bool
}

/// A subject of this module that keeps its ``SubjectUpstreams`` in its own locked state; the
/// upstream bookkeeping (accepting, starting on first demand) is shared here.
protocol SubjectUpstreamsHolder: UpstreamAcceptingSubject {
    /// Runs `body` under the subject's lock with its upstreams and whether it has completed.
    func withUpstreams<R>(_ body: (inout SubjectUpstreams, _ completed: Bool) -> R) -> R
}

extension SubjectUpstreamsHolder {
    func acceptUpstream(_ subscription: Subscription) -> Bool {
        let outcome = withUpstreams { upstreams, completed -> (accepted: Bool, requestNow: Bool) in
            completed ? (false, false) : (true, upstreams.add(subscription))
        }
        if outcome.requestNow { subscription.request(.unlimited) }
        return outcome.accepted
    }

    /// A subscriber demanded values for the first time: starts every upstream (once).
    func downstreamDemanded() {
        for subscription in withUpstreams({ upstreams, _ in upstreams.downstreamDemanded() }) {
            subscription.request(.unlimited)
        }
    }
}
