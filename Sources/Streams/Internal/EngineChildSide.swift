/// One child's subscriber in a ``ChildPublisherEngine``, and its node in the engine's
/// ``EngineChildList``.
///
/// Thread-safety: its stored `var`s belong to the engine's mutex.
@usableFromInline
final class EngineChildSide<Engine: ChildPublisherEngine>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline typealias Input = Engine.Child.Output
    @usableFromInline typealias Failure = Engine.Child.Failure
    @usableFromInline let engine: Engine
    @exclusivity(unchecked) @usableFromInline var subscription: Subscription?
    /// Listed: not yet finished, superseded or cancelled.
    @exclusivity(unchecked) @usableFromInline var isActive = false
    @exclusivity(unchecked) @usableFromInline var next: EngineChildSide?
    /// The node whose `next` is this one (which keeps it alive while both are listed).
    @exclusivity(unchecked) @usableFromInline unowned(unsafe) var previous: EngineChildSide?

    @inlinable init(engine: Engine) {
        self.engine = engine
    }

    @usableFromInline var description: String { engine.description }

    @usableFromInline var playgroundDescription: Any { description }

    /// The upstream's subscriber, by its identifier, as Combine shows it.
    @usableFromInline var customMirror: Mirror {
        Mirror(self, children: [("parentSubscription", engine.upstreamIdentifier)])
    }

    @inlinable func receive(subscription: Subscription) {
        engine.childSubscribed(self, subscription)
    }

    @inlinable func receive(_ input: Input) -> Subscribers.Demand {
        engine.childReceived(self, input)
    }

    @inlinable func receive(completion: Subscribers.Completion<Failure>) {
        engine.childCompleted(self, completion)
    }
}
