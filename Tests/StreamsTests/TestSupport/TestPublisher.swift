import Locking
import Streams
import Synchronization

/// A hand-driven publisher: it records each subscriber and gives it a ``TestSubscription``;
/// the test then calls `send` / `finish` / `fail` to push events to the latest subscriber,
/// regardless of demand (so tests can observe how operators treat their upstream).
final class TestPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let subscribers = Locked<[UncheckedBox<AnySubscriber<Output, Failure>>]>([])
    private let subscriptionsBox = Locked<[TestSubscription]>([])

    /// Runs inside `receive(subscriber:)` after the subscription was handed over.
    var onSubscribe: ((TestPublisher) -> Void)?

    init() {}

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = TestSubscription()
        subscribers.withLock { $0.append(UncheckedBox(AnySubscriber(subscriber))) }
        subscriptionsBox.withLock { $0.append(subscription) }
        subscriber.receive(subscription: subscription)
        onSubscribe?(self)
    }

    var subscribeCount: Int { subscribers.withLock { $0.count } }
    var subscription: TestSubscription? { subscriptionsBox.withLock { $0.last } }

    private var latest: AnySubscriber<Output, Failure>? { subscribers.withLock { $0.last }?.value }

    /// Sends a value to the latest subscriber; returns the demand it returned.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        latest?.receive(value) ?? .none
    }

    /// Forgets every subscriber. This double keeps its subscribers for inspection (a real
    /// publisher lets go of one once it completed or was cancelled); an operator that keeps its
    /// upstream to subscribe again (`retry`) would otherwise form a cycle with it that outlives
    /// the test, which LeakSanitizer reports.
    func releaseSubscribers() { subscribers.withLock { $0.removeAll() } }

    func finish() { latest?.receive(completion: .finished) }
    func fail(_ error: Failure) { latest?.receive(completion: .failure(error)) }
}

/// Records requests and cancellations.
final class TestSubscription: Subscription, @unchecked Sendable {
    private let state = Locked<(requests: [Subscribers.Demand], cancels: Int)>(([], 0))

    func request(_ demand: Subscribers.Demand) { state.withLock { $0.requests.append(demand) } }
    func cancel() { state.withLock { $0.cancels += 1 } }

    var requests: [Subscribers.Demand] { state.withLock { $0.requests } }
    var totalDemand: Subscribers.Demand { requests.reduce(.none, +) }
    var cancelCount: Int { state.withLock { $0.cancels } }
    var isCancelled: Bool { cancelCount > 0 }
}

/// Runs `body` with a fresh ``Probe`` that only `body` (and the streams it joins) may keep, and
/// reports whether the probe is gone once `body` returned: for synchronous and virtual-time
/// pipelines, which must let go of their subscriber at once when the stream ends.
func probeIsReleasedAtOnce(_ body: (Probe) -> Void) -> Bool {
    weak var weakProbe: Probe?
    do {
        let probe = Probe()
        weakProbe = probe
        body(probe)
    }
    return weakProbe == nil
}

/// A publisher that only keeps the subscriber it is given (unerased, so a test can reach the
/// operator behind it) and lets the test deliver the subscription and events by hand, in any
/// order: for the paths where an upstream breaks the contract.
final class ManualPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let kept = Locked<(erased: AnySubscriber<Output, Failure>?, raw: Any?)>((nil, nil))

    var subscriber: AnySubscriber<Output, Failure>? { kept.withLock { $0.erased } }
    /// The subscriber exactly as given.
    var rawSubscriber: Any? { kept.withLock { $0.raw } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        kept.withLock { $0 = (AnySubscriber(subscriber), subscriber) }
    }

    /// The operator's side as a subscription (the operators that own one are both).
    var operatorSubscription: Subscription? { rawSubscriber as? Subscription }
}
