/// A publisher that exposes a method for outside callers to publish elements.
///
/// Subjects broadcast values to all current subscribers; each subscriber receives only what it
/// has demanded. In this module `send` may be called from any thread: deliveries to each
/// subscriber are serialised (never overlapping) and never happen under a lock.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscribers.
    func send(_ value: Output)
    /// Sends a completion signal to the subscribers. Later sends are ignored.
    func send(completion: Subscribers.Completion<Failure>)
    /// Provides this subject with a subscription (when it is subscribed to an upstream).
    func send(subscription: Subscription)
}

extension Subject where Output == Void {
    /// Sends a `Void` value to the subscribers.
    public func send() {
        send(())
    }
}

extension Publisher {
    /// Attaches the specified subject to this publisher.
    ///
    /// - Returns: A cancellable that cancels the upstream subscription.
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber(subject: subject)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}

/// Forwards a publisher's events into a subject; cancellable from any thread. Both ends live in a
/// ``Link`` and are dropped when the stream ends.
///
/// As in Combine, a subject of the caller's own is handed this subscriber as its subscription
/// (named "Subject"), which passes requests and cancels on to the upstream; the module's own
/// subjects take the upstream's subscription directly.
final class SubjectSubscriber<Target: Subject>: Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable {
    // @unchecked Sendable: its state is in `link`, behind the link's lock; its other fields are immutable.
    private let link: Link<Target>

    init(subject: Target) {
        // As Combine's: values before the subscription reach the subject, a completion does
        // not (a shared publisher's subscribers are not ended by an upstream that breaks the
        // contract).
        link = Link(downstream: subject, early: [.forwardValues, .cancelLateSubscription])
    }

    var description: String { "Subject" }

    func receive(subscription: Subscription) {
        guard let subject = link.attach(subscription) else {
            subscription.cancel()
            return
        }
        if let accepting = subject as? any UpstreamAcceptingSubject {
            // A completed subject refuses: end the link so the upstream is cancelled once.
            if !accepting.acceptUpstream(subscription) { link.cancel()?.cancel() }
        } else {
            subject.send(subscription: self)
        }
    }

    func receive(_ input: Target.Output) -> Subscribers.Demand {
        link.downstream?.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Target.Failure>) {
        link.complete()?.send(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        link.upstreamSlot.request(demand)
    }

    func cancel() {
        link.cancel()?.cancel()
    }
}
