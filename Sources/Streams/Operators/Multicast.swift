import Locking
import Synchronization

/// A publisher that provides an explicit means of connecting and cancelling publication.
///
/// Subscribers attach without triggering the upstream; ``connect()`` subscribes the upstream.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the publisher, allowing it to produce elements, and returns an instance with
    /// which to cancel publishing.
    func connect() -> Cancellable
}

extension ConnectablePublisher {
    /// Automates the process of connecting to a multicast publisher: connects on the first
    /// subscriber and disconnects when the last one cancels or completes.
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}

extension Publishers {
    /// A publisher that uses a subject to deliver elements to multiple subscribers.
    ///
    /// The subject is created (once) by `createSubject` when first needed. Subscribers attach to
    /// the subject; ``connect()`` subscribes the subject to the upstream. Thread-safety: the lazily
    /// created subject is guarded by a lock.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher, @unchecked Sendable
    where Upstream.Output == SubjectType.Output, Upstream.Failure == SubjectType.Failure {
        /// The subject's output type.
        public typealias Output = Upstream.Output
        /// The subject's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure to create a new subject, called once.
        public let createSubject: () -> SubjectType

        private let subjectState = Locked<SubjectType?>(nil)

        /// Creates a multicast publisher.
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        /// The subject, created outside the lock on first use; a racing creation loses.
        private var subject: SubjectType {
            if let existing = subjectState.withLock({ $0 }) { return existing }
            let created = createSubject()
            return subjectState.withLock { subject in
                if let subject { return subject }
                subject = created
                return created
            }
        }

        /// Attaches the subscriber to the subject, through a subscription of the multicast's
        /// own (Combine's "Multicast").
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subject.subscribe(Inner(downstream: subscriber))
        }

        /// Stands between the subject and one subscriber, which sees it as its subscription.
        /// Both ends live in a ``Link`` and are dropped when the stream ends.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineReflectable,
            @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            // @unchecked Sendable: its state is in `link`, behind the link's lock; its other fields are immutable.
            private let link: Link<Downstream>

            init(downstream: Downstream) {
                self.link = Link(downstream: downstream, early: [.forwardValues, .forwardCompletion])
            }

            var description: String { "Multicast" }

            func receive(subscription: Subscription) {
                link.adopt(subscription)?.receive(subscription: self)
            }

            /// As Combine's: the demand the downstream returns is requested from the subject
            /// rather than returned to it.
            func receive(_ input: Output) -> Subscribers.Demand {
                guard let downstream = link.downstream else { return .none }
                let extra = downstream.receive(input)
                if extra > 0 { link.upstreamSlot.request(extra) }
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                link.complete()?.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                link.upstream?.request(demand)
            }

            func cancel() {
                link.cancel()?.cancel()
            }
        }

        /// Subscribes the subject to the upstream; cancelling the result cancels that subscription.
        public func connect() -> Cancellable {
            upstream.subscribe(subject)
        }
    }
}

extension Publisher {
    /// Applies a closure to create a subject that delivers elements to subscribers.
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Provides a subject to deliver elements to multiple subscribers.
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self) { subject }
    }
}
