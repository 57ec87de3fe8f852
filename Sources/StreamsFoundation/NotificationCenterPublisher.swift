import Foundation
import Locking
import Streams

extension NotificationCenter {
    /// Returns a publisher that emits the notifications named `name` (from `object`, if given)
    /// posted to this center.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> Publisher {
        Publisher(center: self, name: name, object: object)
    }

    /// A publisher of the notifications a center posts.
    ///
    /// Each subscriber gets its own observer, added when it subscribes and removed when it
    /// cancels. Notifications posted while the subscriber has no demand are dropped, as in
    /// Combine. It never finishes. Thread-safety: notifications are delivered on the posting
    /// thread; demand and cancellation may come from any thread.
    public struct Publisher: Streams.Publisher, @unchecked Sendable {
        /// A posted notification.
        public typealias Output = Notification
        /// It never fails.
        public typealias Failure = Never

        /// The notification center this publisher uses.
        public let center: NotificationCenter
        /// The name of notifications published by this publisher.
        public let name: Notification.Name
        /// The object posting the named notification, or `nil` for any.
        public let object: AnyObject?

        /// Creates a publisher of the notifications named `name` from `object`.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Adds an observer that feeds the subscriber.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            let subscription = ObserverSubscription(downstream: subscriber, center: center)
            subscriber.receive(subscription: subscription)
            subscription.observe(name: name, object: object)
        }
    }
}

/// One observer of a center, delivering to one subscriber while it has demand.
private final class ObserverSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
    // @unchecked Sendable: its state is behind its `Locked` lock; the rest is immutable.
    private struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var observer: NSObjectProtocol?
        var isDelivering = false
    }

    private let state: Locked<State>
    private let center: NotificationCenter

    init(downstream: Downstream, center: NotificationCenter) {
        state = Locked(State(downstream: downstream))
        self.center = center
    }

    var description: String { "NotificationCenter Observer" }

    func observe(name: Notification.Name, object: AnyObject?) {
        let callback = UncheckedCallback<Notification> { [weak self] in self?.deliver($0) }
        let observer = center.addObserver(forName: name, object: object, queue: nil) { note in
            callback.body(note)
        }
        let stale = state.withLock { state -> NSObjectProtocol? in
            if state.downstream == nil { return observer }
            state.observer = observer
            return nil
        }
        if let stale { center.removeObserver(stale) }
    }

    private func deliver(_ note: Notification) {
        let downstream = state.withLock { state -> Downstream? in
            guard let downstream = state.downstream, state.demand > 0, !state.isDelivering else { return nil }
            state.demand -= 1
            state.isDelivering = true
            return downstream
        }
        guard let downstream else { return }
        let extra = downstream.receive(note)
        state.withLock { state in
            state.isDelivering = false
            if state.downstream != nil { state.demand += extra }
        }
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        state.withLock { state in
            if state.downstream != nil { state.demand += demand }
        }
    }

    func cancel() {
        let ended = state.withLock { state -> (NSObjectProtocol?, Downstream?) in
            defer { state = State() }
            return (state.observer, state.downstream)
        }
        if let observer = ended.0 { center.removeObserver(observer) }
    }
}

extension NotificationCenter.Publisher: Equatable {
    /// Two publishers are equal when they observe the same center for the same name from the
    /// same object (by identity).
    public static func == (lhs: NotificationCenter.Publisher, rhs: NotificationCenter.Publisher) -> Bool {
        lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
    }
}
