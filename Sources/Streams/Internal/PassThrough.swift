/// A stateless subscriber that hands the upstream subscription straight to the downstream and
/// adapts values and completions with closures. Used by simple operators (mapError,
/// setFailureType, assertNoFailure, scan, map by key path); it is exactly as thread-safe as its upstream, since it
/// adds no state of its own (closures that keep state rely on the upstream's serialised calls).
/// Inlinable, so a chain through it is specialised in the caller's module.
@usableFromInline
struct PassThrough<UpstreamInput, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, CombineReflectable {
    @usableFromInline typealias Input = UpstreamInput
    @usableFromInline typealias Failure = UpstreamFailure

    @usableFromInline let downstream: Downstream
    @usableFromInline let name: String
    @usableFromInline let value: (UpstreamInput, Downstream) -> Subscribers.Demand
    @usableFromInline let completion:
        (Subscribers.Completion<UpstreamFailure>) -> Subscribers.Completion<Downstream.Failure>
    @usableFromInline let combineIdentifier = CombineIdentifier()
    /// The mirror's children, for the operators Combine shows settings for; `nil` shows none.
    @usableFromInline let reflect: (() -> [Mirror.Child])?

    @inlinable
    init(
        downstream: Downstream,
        name: String,
        reflect: (() -> [Mirror.Child])? = nil,
        value: @escaping (UpstreamInput, Downstream) -> Subscribers.Demand,
        completion: @escaping (Subscribers.Completion<UpstreamFailure>) -> Subscribers.Completion<Downstream.Failure>
    ) {
        self.downstream = downstream
        self.reflect = reflect
        self.name = name
        self.value = value
        self.completion = completion
    }

    @usableFromInline var description: String { name }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: reflect?() ?? []) }

    @inlinable func receive(subscription: Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable func receive(_ input: UpstreamInput) -> Subscribers.Demand {
        value(input, downstream)
    }

    @inlinable func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        downstream.receive(completion: self.completion(completion))
    }
}
