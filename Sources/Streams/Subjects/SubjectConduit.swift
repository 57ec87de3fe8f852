/// The untyped part of a subject's per-subscriber slot. A subject keeps its conduits as
/// `[SubjectConduitRoot]`, an array of a non-generic class, so that its unspecialised
/// bookkeeping (attach, detach) needs no generic metadata; `send` casts each back to its
/// ``SubjectConduitBase``.
@usableFromInline
class SubjectConduitRoot: @unchecked Sendable {
    /// The subject's core, for the first demand and the cancel. Set once, under the core's
    /// mutex, before the conduit is shared.
    @usableFromInline var core: SubjectCore?

    @inlinable init() {}

    /// Hands the subscriber its subscription (this conduit) and opens delivery.
    @usableFromInline func start() {}
    /// The subject is gone: nothing can be delivered any more, so the subscriber is let go of.
    @usableFromInline func release() {}
}

/// Type-erased per-subscriber delivery slot of a subject.
///
/// The subject sends values through ``offerValue``, a closure formed where the conduit was
/// created: when that is the subscriber's own (specialised) code, delivery runs as specialised
/// code too, where a virtual method would always run the unspecialised generic one.
@usableFromInline
class SubjectConduitBase<Output, Failure: Error>: SubjectConduitRoot, @unchecked Sendable {
    /// Offers a value to the subscriber (dropped without demand).
    @usableFromInline let offerValue: (Output) -> Void
    /// For current-value subjects: reads the value to deliver when demand arrives after a drop.
    /// Set once, before the conduit is shared.
    @usableFromInline var currentValue: (() -> Output?)?

    @inlinable
    init(offerValue: @escaping (Output) -> Void) {
        self.offerValue = offerValue
    }

    /// The subject had already completed: the subscriber gets an empty subscription and the
    /// completion, and is let go of.
    @usableFromInline func reject(_ completion: Subscribers.Completion<Failure>) {}
    @usableFromInline func finish(_ completion: Subscribers.Completion<Failure>) {}
}

/// One subscriber of a subject: an ``Outbox`` (serialised delivery that drops values sent
/// without demand) plus the hooks to detach from the subject on cancel and, for
/// ``CurrentValueSubject``, to re-offer the current value when demand arrives after a drop.
@usableFromInline
final class SubjectConduit<Downstream: Subscriber>: SubjectConduitBase<Downstream.Input, Downstream.Failure>,
    SpecializedSubscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
{
    // @unchecked Sendable: its state is in `outbox`, behind the outbox's lock; the rest is immutable.
    @usableFromInline let outbox: Outbox<Downstream>
    @usableFromInline let description: String
    /// The forwarding closures of `request` and `cancel` (see ``SpecializedSubscription``).
    @usableFromInline let specialized: SpecializedEntries<SubjectConduit>
    /// `start` arrives through the subject's type-erased list, which always runs the
    /// unspecialised method: this closure, formed in `init`, forwards to the specialised body.
    @usableFromInline let specializedStart: (SubjectConduit) -> Void

    /// - Parameter replaysCurrentValue: for current-value subjects: the first demand delivers
    ///   the current value (read through ``SubjectConduitBase/currentValue``).
    @inlinable
    init(downstream: Downstream, name: String, replaysCurrentValue: Bool = false) {
        let outbox = Outbox(downstream, hasMissedValue: replaysCurrentValue)
        self.outbox = outbox
        self.description = name
        self.specialized = SpecializedEntries()
        self.specializedStart = { $0.startNow() }
        super.init(offerValue: { outbox.offer($0) })
    }

    /// As Combine's conduits: the subject (shown by its name: the conduit keeps no reference
    /// to it), the downstream while live and the outstanding demand; an observable object's
    /// publisher shows only the downstream.
    @usableFromInline var customMirror: Mirror {
        let downstream = downstreamChild(outbox.downstreamIfLive)
        guard description != "ObservableObjectPublisher" else { return Mirror(self, children: [downstream]) }
        return Mirror(
            self,
            children: [("parent", description), downstream, ("demand", outbox.shownDemand), ("subject", description)])
    }

    @usableFromInline var playgroundDescription: Any { description }

    @usableFromInline override func start() {
        specializedStart(self)
    }

    @inlinable func startNow() {
        guard let downstream = outbox.downstreamIfLive else { return }
        downstream.receive(subscription: self)
        outbox.open()
    }

    @usableFromInline override func reject(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard let downstream = outbox.downstreamIfLive else { return }
        outbox.cancel()
        downstream.receive(subscription: Subscriptions.empty)
        downstream.receive(completion: completion)
    }

    @usableFromInline override func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        outbox.complete(completion)
    }

    @usableFromInline override func release() {
        outbox.cancel()
    }

    @inlinable func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        let (first, _, missed) = outbox.request(demand)
        if first { core?.conduitDemanded() }
        if missed, let value = currentValue?() {
            // As Combine's: a subscriber that asks from inside its `receive(subscription:)`
            // gets the current value within that request (it has its subscription, so
            // delivery may start).
            outbox.open()
            outbox.offer(value)
        }
    }

    @inlinable func cancelNow() {
        outbox.cancel()
        core?.detach(self)
    }
}
