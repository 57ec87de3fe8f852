/// Type-erased per-subscriber delivery slot of a subject.
class SubjectConduitBase<Output, Failure: Error>: @unchecked Sendable {
    func offer(_ value: Output) {}
    func finish(_ completion: Subscribers.Completion<Failure>) {}
    /// The subject is gone: nothing can be delivered any more, so the subscriber is let go of.
    func release() {}
}

/// One subscriber of a subject: an ``Outbox`` (serialised delivery that drops values sent
/// without demand) plus the hooks to detach from the subject on cancel and, for
/// ``CurrentValueSubject``, to re-offer the current value when demand arrives after a drop.
final class SubjectConduit<Downstream: Subscriber>: SubjectConduitBase<Downstream.Input, Downstream.Failure>,
    Subscription, CustomStringConvertible, @unchecked Sendable
{
    private let outbox: Outbox<Downstream>
    private let detach: (SubjectConduitBase<Downstream.Input, Downstream.Failure>) -> Void
    private let currentValue: (() -> Downstream.Input?)?
    private let demanded: () -> Void
    let description: String

    /// - Parameter currentValue: for current-value subjects, reads the value to deliver when
    ///   demand arrives and the latest value has not been delivered.
    /// - Parameter demanded: called once, on the subscriber's first non-zero request (the subject
    ///   then starts its upstreams).
    init(
        downstream: Downstream,
        name: String,
        currentValue: (() -> Downstream.Input?)? = nil,
        demanded: @escaping () -> Void,
        detach: @escaping (SubjectConduitBase<Downstream.Input, Downstream.Failure>) -> Void
    ) {
        outbox = Outbox(downstream, missedValue: currentValue != nil)
        self.detach = detach
        self.currentValue = currentValue
        self.demanded = demanded
        self.description = name
    }

    func open() {
        outbox.open()
    }

    override func offer(_ value: Downstream.Input) {
        outbox.offer(value)
    }

    override func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        outbox.complete(completion)
    }

    override func release() {
        outbox.cancel()
    }

    func request(_ demand: Subscribers.Demand) {
        let (first, _, missed) = outbox.request(demand)
        if first { demanded() }
        if missed, let value = currentValue?() {
            outbox.offer(value)
        }
    }

    func cancel() {
        outbox.cancel()
        detach(self)
    }
}
