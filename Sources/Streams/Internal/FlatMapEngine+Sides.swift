/// The two kinds of subscriber a ``FlatMapEngine`` puts in front of its publishers: the
/// upstream's, and one per child (also the child's node in the engine's list).
extension FlatMapEngine {
    @usableFromInline
    struct UpstreamSide: Subscriber, CombineReflectable {
        @usableFromInline typealias Input = UpstreamOutput
        @usableFromInline typealias Failure = Downstream.Failure
        @usableFromInline let engine: FlatMapEngine
        @usableFromInline var combineIdentifier: CombineIdentifier { engine.upstreamIdentifier }
        @usableFromInline var description: String { "FlatMap" }

        @inlinable init(engine: FlatMapEngine) {
            self.engine = engine
        }

        @inlinable func receive(subscription: Subscription) { engine.upstreamSubscribed(subscription) }
        @inlinable func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
            engine.upstreamReceived(input)
            return .none
        }
        @inlinable func receive(completion: Subscribers.Completion<Failure>) { engine.upstreamCompleted(completion) }
    }

    /// One child's subscriber, and its node in the list. Its stored `var`s belong to the
    /// engine's mutex.
    @usableFromInline
    final class ChildSide: Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
        @unchecked Sendable
    {
        @usableFromInline typealias Input = Child.Output
        @usableFromInline typealias Failure = Child.Failure
        @usableFromInline let engine: FlatMapEngine
        @exclusivity(unchecked) @usableFromInline var subscription: Subscription?
        @exclusivity(unchecked) @usableFromInline var active = false
        @exclusivity(unchecked) @usableFromInline var next: ChildSide?
        /// The node whose `next` is this one (which keeps it alive while both are listed).
        @exclusivity(unchecked) @usableFromInline unowned(unsafe) var previous: ChildSide?

        @inlinable init(engine: FlatMapEngine) {
            self.engine = engine
        }

        @usableFromInline var description: String { "FlatMap" }

        @usableFromInline var playgroundDescription: Any { description }

        /// The upstream's subscriber, by its identifier, as Combine shows it.
        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: [("parentSubscription", engine.upstreamIdentifier)])
        }

        @inlinable func receive(subscription: Subscription) {
            engine.childSubscribed(self, subscription)
        }
        @inlinable func receive(_ input: Child.Output) -> Subscribers.Demand {
            engine.childReceived(self, input)
        }
        @inlinable func receive(completion: Subscribers.Completion<Failure>) {
            engine.childCompleted(self, completion)
        }
    }
}
