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

    /// The engine's lock, never held while calling out.
    var mutex: RawMutex { get }
    /// The children subscribed or about to be (under `mutex`).
    var children: EngineChildList<Self> { get set }
    /// Makes each value's child publisher; `nil` once the upstream has finished or the stream
    /// has ended (under `mutex`).
    var transform: ((UpstreamOutput) -> Child)? { get }
    /// Whether the stream has ended: failed, finished or cancelled (under `mutex`).
    var hasEnded: Bool { get }

    func upstreamSubscribed(_ subscription: Subscription)
    func upstreamCompleted(_ completion: Subscribers.Completion<Child.Failure>)

    func childSubscribed(_ child: EngineChildSide<Self>, _ subscription: Subscription)
    /// Returns the demand the child gets through its `receive(_:)`.
    func childReceived(_ child: EngineChildSide<Self>, _ value: Child.Output) -> Subscribers.Demand
    func childCompleted(_ child: EngineChildSide<Self>, _ completion: Subscribers.Completion<Child.Failure>)
}

extension ChildPublisherEngine {
    /// Lists a new child, then subscribes it to the publisher `transform` makes of `value`. The
    /// child is listed before the closure runs (outside the lock), so the stream cannot finish
    /// meanwhile.
    @inlinable
    func upstreamReceived(_ value: UpstreamOutput) {
        let child = EngineChildSide(engine: self)
        mutex.lock()
        guard !hasEnded, let transform else {
            mutex.unlock()
            return
        }
        children.push(child)
        mutex.unlock()
        transform(value).subscribe(child)
    }
}
