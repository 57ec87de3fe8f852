/// The upstream subscriptions a subject was handed through `send(subscription:)`, kept in the
/// subject's own lock.
///
/// Like Combine's `PassthroughSubject`, a subject asks its upstreams for `.unlimited` only once
/// one of its own subscribers has demanded a value: an upstream attached before that waits, and
/// the first downstream demand starts all of them. A `CurrentValueSubject` always has a value
/// to offer and asks each upstream at once (``startAtOnce()``). Not thread-safe by itself; the
/// owner guards it.
@usableFromInline
struct SubjectUpstreams {
    private var subscriptions: [Subscription] = []
    private var hasDemand = false

    @usableFromInline init() {}

    /// Keeps `subscription`; returns whether it should be asked for `.unlimited` now.
    mutating func add(_ subscription: Subscription) -> Bool {
        subscriptions.append(subscription)
        return hasDemand
    }

    /// Records the first downstream demand; returns the upstreams to ask for `.unlimited`
    /// (empty after the first call).
    mutating func downstreamDemanded() -> [Subscription] {
        guard !hasDemand else { return [] }
        hasDemand = true
        return subscriptions
    }

    /// From now on every upstream is asked for `.unlimited` as soon as it is added.
    mutating func startAtOnce() {
        hasDemand = true
    }

    /// Forgets every upstream and returns them (the subject is gone: the caller cancels them).
    mutating func takeAll() -> [Subscription] {
        defer { subscriptions = [] }
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
