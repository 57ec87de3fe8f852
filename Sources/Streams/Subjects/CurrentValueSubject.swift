/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// A new subscriber receives the current value as soon as it demands one, then later values as
/// far as it demands them. If values are sent while a subscriber has no demand, it receives the
/// then-current value when demand arrives (intermediate values are dropped). After a
/// completion, sends are ignored and the value no longer changes.
///
/// Thread-safety: `value` and `send` may be used from any thread; the value, the completion and
/// the subscriber list live under one mutex (in a `SubjectCore`), and deliveries happen outside
/// it, serialised per subscriber.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, UpstreamAcceptingSubject, @unchecked Sendable {
    @usableFromInline let core = SubjectCore()
    /// The name of each subscriber's subscription: Combine's subjects name theirs after the
    /// subject, and the publishers built on a subject (`@Published`, an observable object's
    /// publisher) after themselves. Set before the subject is shared.
    @usableFromInline var conduitName = "CurrentValueSubject"
    /// Under `core.mutex`.
    @exclusivity(unchecked) @usableFromInline var current: Output
    /// Set once the subject completes; under `core.mutex`.
    @exclusivity(unchecked) var completion: Subscribers.Completion<Failure>?

    /// Creates a current-value subject with the given initial value.
    public init(_ value: Output) {
        current = value
        core.startUpstreamsAtOnce()
    }

    /// A subject that is gone can send nothing more: its subscribers are let go of (they keep
    /// their subscription, which no longer delivers anything), so none stays in a cycle with it.
    deinit {
        core.subjectGone()
    }

    /// The value wrapped by this subject. Setting it is equivalent to `send(_:)`.
    public var value: Output {
        get {
            core.mutex.lock()
            defer { core.mutex.unlock() }
            return current
        }
        set {
            // As Combine's: after the completion the value still changes (nobody is told).
            core.mutex.lock()
            guard core.isCompleted else {
                core.mutex.unlock()
                send(newValue)
                return
            }
            let previous = current
            current = newValue
            core.mutex.unlock()
            _ = previous  // released outside the lock
        }
    }

    /// Attaches a subscriber; it receives the current value on its first demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        // Made here, in the subscriber's (specialised) code: see `PassthroughSubject`.
        attach(SubjectConduit(downstream: subscriber, name: conduitName, replaysCurrentValue: true))
    }

    /// Registers a new subscriber's conduit and starts it (or rejects it after a completion).
    @usableFromInline
    func attach(_ conduit: SubjectConduitBase<Output, Failure>) {
        conduit.currentValue = { [weak self] in self?.valueIfLive() }
        core.mutex.lock()
        guard !core.append(conduit), let completion else {
            core.mutex.unlock()
            conduit.start()
            return
        }
        core.mutex.unlock()
        conduit.reject(completion)
    }

    /// The current value, or `nil` once the subject has completed.
    func valueIfLive() -> Output? {
        core.mutex.lock()
        defer { core.mutex.unlock() }
        return core.isCompleted ? nil : current
    }

    /// Stores the value and sends it to every subscriber (as far as each has demand).
    @inlinable
    public func send(_ input: Output) {
        core.mutex.lock()
        guard !core.isCompleted else {
            core.mutex.unlock()
            return
        }
        let previous = current
        current = input
        let conduits = core.conduits
        core.mutex.unlock()
        _ = previous  // released outside the lock
        for conduit in conduits {
            unsafeDowncast(conduit, to: SubjectConduitBase<Output, Failure>.self).offerValue(input)
        }
    }

    /// Sends a completion to every subscriber; ignored if already completed.
    public func send(completion: Subscribers.Completion<Failure>) {
        core.finish(completion, of: Output.self) { self.completion = completion }
    }

    /// Keeps the upstream subscription and asks it for `.unlimited` at once, as Combine's
    /// current-value subject does; cancels it if the subject has completed.
    public func send(subscription: Subscription) {
        if !acceptUpstream(subscription) { subscription.cancel() }
    }

    func acceptUpstream(_ subscription: Subscription) -> Bool {
        core.acceptUpstream(subscription)
    }
}
