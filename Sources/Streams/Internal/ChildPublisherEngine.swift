/// An engine with one upstream whose values it turns into child publishers, merged into one
/// downstream (``MergeEngine``, ``FlatMapEngine``): what its two kinds of subscriber,
/// ``EngineUpstreamSide`` and ``EngineChildSide``, forward their events to.
///
/// Each engine keeps its own demand and completion rules; the sides, and the list of children
/// (``EngineChildList``), are the same for both. The requirements are called from inlinable
/// code on the concrete engine, so they run specialised.
@usableFromInline
protocol ChildPublisherEngine: AnyObject {
    associatedtype UpstreamOutput
    associatedtype Child: Publisher

    /// Combine's name of the operator, shown by both sides.
    var description: String { get }
    /// The identifier of the upstream's subscriber, which each child's subscriber shows as its
    /// parent in its mirror, as Combine's do.
    var upstreamIdentifier: CombineIdentifier { get }

    func upstreamSubscribed(_ subscription: Subscription)
    func upstreamReceived(_ value: UpstreamOutput)
    func upstreamCompleted(_ completion: Subscribers.Completion<Child.Failure>)

    func childSubscribed(_ child: EngineChildSide<Self>, _ subscription: Subscription)
    /// Returns the demand the child gets through its `receive(_:)`.
    func childReceived(_ child: EngineChildSide<Self>, _ value: Child.Output) -> Subscribers.Demand
    func childCompleted(_ child: EngineChildSide<Self>, _ completion: Subscribers.Completion<Child.Failure>)
}
