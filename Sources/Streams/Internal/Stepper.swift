/// What a ``Stepper`` does with one upstream value.
@usableFromInline
enum Step<Output, Failure: Error> {
    /// Deliver this value downstream.
    case emit(Output)
    /// Drop the value and ask the upstream for one more in its place.
    case skip
    /// Deliver this value, then cancel the upstream and finish (returning the demand the
    /// downstream returned).
    case emitAndFinish(Output)
    /// Cancel the upstream and finish.
    case finish
    /// Cancel the upstream and fail.
    case fail(Failure)
}

/// The engine behind per-value operators that may drop values or end the stream early
/// (tryFilter, tryCompactMap, tryRemoveDuplicates, dropFirst, drop(while:), prefix, output(in:),
/// scan, ignoreOutput, …).
///
/// It stands between the upstream and the downstream, whose subscription is this object:
/// requests go straight to the upstream (optionally scaled by `upstreamDemand`), and each value
/// goes through `step`, which reports a ``Step``. A dropped value is replaced by a demand of one,
/// so the downstream's demand is honoured exactly. Both ends live in a ``Link``: after an early
/// end, an upstream completion or a cancel nothing more reaches the downstream and neither end
/// is kept.
///
/// Inlinable, so an operator built on it in the subscriber's code runs specialised; `request`
/// and `cancel`, which arrive through the `Subscription` existential, forward to specialised
/// bodies through closures formed in `init`.
///
/// Thread-safety: `step` and `mapFailure` (and whatever state they capture) run only from the
/// upstream's serialised calls; request and cancel may come from any thread.
@usableFromInline
final class Stepper<UpstreamOutput, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
    SpecializedSubscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline typealias Input = UpstreamOutput
    @usableFromInline typealias Failure = UpstreamFailure

    @usableFromInline let link: Link<Downstream>
    @usableFromInline let step: (UpstreamOutput) -> Step<Downstream.Input, Downstream.Failure>
    @usableFromInline let mapFailure: (UpstreamFailure) -> Downstream.Failure
    @usableFromInline let initialRequest: Subscribers.Demand
    @usableFromInline let description: String
    /// The mirror's children given the downstream (while live); `nil` shows none. Combine shows
    /// some operators' state here: the closures read it without synchronisation, so a mirror is
    /// a view for a debugger, taken while the stream is quiet.
    @usableFromInline let reflect: ((Downstream?) -> [Mirror.Child])?
    /// The forwarding closures of `request` and `cancel` (see ``SpecializedSubscription``).
    @usableFromInline let specialized: SpecializedEntries<Stepper>

    /// - Parameters:
    ///   - initialRequest: asked of the upstream as soon as it subscribes, on top of the
    ///     downstream's requests (`.unlimited` for operators that drain the upstream whatever
    ///     the downstream wants, such as ignoreOutput).
    @inlinable
    init(
        downstream: Downstream,
        name: String,
        initialRequest: Subscribers.Demand = .none,
        early: ContractPolicy = [],
        reflect: ((Downstream?) -> [Mirror.Child])? = nil,
        step: @escaping (UpstreamOutput) -> Step<Downstream.Input, Downstream.Failure>,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure
    ) {
        self.link = Link(downstream: downstream, early: early)
        self.description = name
        self.reflect = reflect
        self.initialRequest = initialRequest
        self.step = step
        self.mapFailure = mapFailure
        self.specialized = SpecializedEntries()
    }

    @usableFromInline var playgroundDescription: Any { description }

    @usableFromInline var customMirror: Mirror {
        Mirror(self, children: reflect?(link.shownDownstream) ?? [])
    }

    @inlinable
    func receive(subscription: Subscription) {
        guard let downstream = link.adopt(subscription) else { return }
        downstream.receive(subscription: self)
        if initialRequest > 0 { subscription.request(initialRequest) }
    }

    @inlinable
    func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
        guard let downstream = link.downstream else { return .none }
        switch step(input) {
        case .emit(let output):
            return downstream.receive(output)
        case .skip:
            return initialRequest == .unlimited ? .none : .max(1)
        case .emitAndFinish(let output):
            if holdsEnd { return downstream.receive(output) }
            guard endEarly() else { return .none }
            // As Combine's output(in:), the demand the downstream returns is passed back.
            let demand = downstream.receive(output)
            downstream.receive(completion: .finished)
            return demand
        case .finish:
            if holdsEnd { return .none }
            guard endEarly() else { return .none }
            downstream.receive(completion: .finished)
        case .fail(let error):
            guard endEarly() else { return .none }
            downstream.receive(completion: .failure(error))
        }
        return .none
    }

    /// Whether an early end is held back: before the upstream's subscription, for operators
    /// that end only once attached (``ContractPolicy/endOnlyAttached``).
    @inlinable
    var holdsEnd: Bool {
        link.early.contains(.endOnlyAttached) && !link.isAttached
    }

    /// Ends the link and cancels the upstream; `false` if the stream had already ended. A
    /// value the operator forwards before the subscription may end the stream too (as
    /// Combine's decode fails on one it cannot decode): there is no upstream to cancel then.
    @inlinable
    func endEarly() -> Bool {
        let (live, upstream) = link.cancelReportingLive()
        guard live else { return false }
        upstream.cancel()
        return true
    }

    @inlinable
    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        link.complete()?.receive(completion: completion.mapFailure(mapFailure))
    }

    @inlinable
    func requestNow(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        guard demand > 0, initialRequest != .unlimited else { return }
        link.upstreamSlot.request(demand)
    }

    @inlinable
    func cancelNow() {
        link.cancelSlot().cancel()
    }
}

/// Per-subscription state captured by an operator's step closure; touched only from the
/// upstream's serialised calls.
@usableFromInline
final class StepState<Value> {
    @usableFromInline var value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}

extension Publisher {
    /// Subscribes a ``Stepper`` running `step` for each value; the completion passes through with
    /// its failure mapped by `mapFailure`.
    @inlinable
    func subscribeStepping<S: Subscriber>(
        _ subscriber: S,
        name: String,
        initialRequest: Subscribers.Demand = .none,
        early: ContractPolicy = [],
        reflect: ((S?) -> [Mirror.Child])? = nil,
        mapFailure: @escaping (Failure) -> S.Failure,
        step: @escaping (Output) -> Step<S.Input, S.Failure>
    ) {
        subscribe(
            Stepper<Output, Failure, S>(
                downstream: subscriber,
                name: name,
                initialRequest: initialRequest,
                early: early,
                reflect: reflect,
                step: step,
                mapFailure: mapFailure
            )
        )
    }
}

/// Runs a throwing closure for a ``Step``, turning a thrown error into `.fail`.
@inlinable
func tryStep<Output>(_ body: () throws -> Step<Output, Error>) -> Step<Output, Error> {
    do {
        return try body()
    } catch {
        return .fail(error)
    }
}

/// The mirror child Combine shows for an operator's downstream: the subscriber while the stream
/// is live, `nil` after.
@inlinable
func downstreamChild<Downstream>(_ downstream: Downstream?) -> Mirror.Child {
    ("downstream", downstream.map { $0 as Any } ?? "nil")
}
