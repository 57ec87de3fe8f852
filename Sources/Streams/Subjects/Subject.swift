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

/// Forwards a publisher's events into a subject; cancellable from any thread.
final class SubjectSubscriber<Target: Subject>: Subscriber, Cancellable, CustomStringConvertible, @unchecked Sendable {
    private struct State {
        var subject: Target?
        var subscription: Subscription?
    }

    private let state: Locked<State>

    init(subject: Target) {
        state = Locked(State(subject: subject))
    }

    var description: String { "Subject" }

    func receive(subscription: Subscription) {
        let subject = state.withLock { state -> Target? in
            guard state.subject != nil, state.subscription == nil else { return nil }
            state.subscription = subscription
            return state.subject
        }
        if let subject {
            subject.send(subscription: subscription)
        } else {
            subscription.cancel()
        }
    }

    func receive(_ input: Target.Output) -> Subscribers.Demand {
        state.withLock { $0.subject }?.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Target.Failure>) {
        let subject = state.withLock { state -> Target? in
            defer { state = State() }
            return state.subject
        }
        subject?.send(completion: completion)
    }

    func cancel() {
        let subscription = state.withLock { state -> Subscription? in
            defer { state = State() }
            return state.subscription
        }
        subscription?.cancel()
    }
}
