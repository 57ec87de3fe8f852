/// The subscriber a ``ChildPublisherEngine`` puts in front of its upstream: it forwards the
/// upstream's events to the engine and shows the engine's name and upstream identifier.
@usableFromInline
struct EngineUpstreamSide<Engine: ChildPublisherEngine>: Subscriber, CombineReflectable {
    @usableFromInline typealias Input = Engine.UpstreamOutput
    @usableFromInline typealias Failure = Engine.Child.Failure
    @usableFromInline let engine: Engine
    @usableFromInline var combineIdentifier: CombineIdentifier { engine.upstreamIdentifier }
    @usableFromInline var description: String { engine.description }

    @inlinable init(engine: Engine) {
        self.engine = engine
    }

    @inlinable func receive(subscription: Subscription) {
        engine.upstreamSubscribed(subscription)
    }

    /// Children are asked for through the upstream's subscription, never through this return.
    @inlinable func receive(_ input: Engine.UpstreamOutput) -> Subscribers.Demand {
        engine.upstreamReceived(input)
        return .none
    }

    @inlinable func receive(completion: Subscribers.Completion<Failure>) {
        engine.upstreamCompleted(completion)
    }
}
