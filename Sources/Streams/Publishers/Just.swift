import Synchronization

/// A publisher that emits an output to each subscriber just once, and then finishes.
///
/// The value is sent as soon as the subscriber requests a non-zero demand (possibly inside
/// `subscribe`), immediately followed by `.finished`. `Just` cannot fail.
public struct Just<Output>: Publisher {
    /// `Just` never fails.
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Creates a publisher that emits an output to each subscriber just once, then finishes.
    public init(_ output: Output) {
        self.output = output
    }

    /// Hands the subscriber a subscription that delivers ``output`` on the first non-zero demand.
    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        // The deliver closure is formed here, in the caller's specialised code (see
        // `Publishers.Sequence`), so delivery does not run as unspecialised generic code.
        subscriber.receive(subscription: JustSubscription(value: output, downstream: subscriber, deliver: { $0.deliver() }))
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// Delivers one value then `.finished` on first demand. A non-generic atomic flag decides who
/// gets to deliver (or cancel); only that thread touches the stored value and downstream.
@usableFromInline
final class JustSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, @unchecked Sendable {
    @usableFromInline let done = Atomic<Bool>(false)
    @exclusivity(unchecked) @usableFromInline var value: Downstream.Input?  // owned by whoever sets `done`
    @exclusivity(unchecked) @usableFromInline var downstream: Downstream?  // same
    @usableFromInline let specializedDeliver: (JustSubscription) -> Void

    @inlinable
    init(value: Downstream.Input, downstream: Downstream, deliver: @escaping (JustSubscription) -> Void) {
        self.value = value
        self.downstream = downstream
        self.specializedDeliver = deliver
    }

    @usableFromInline var description: String { "Just" }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand > 0, !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        specializedDeliver(self)
    }

    /// Runs once, on the thread that won `done`.
    @inlinable
    func deliver() {
        let value = self.value
        let downstream = self.downstream
        self.value = nil
        self.downstream = nil
        guard let value, let downstream else { return }
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    @inlinable
    func cancel() {
        guard !done.exchange(true, ordering: .acquiringAndReleasing) else { return }
        value = nil
        downstream = nil
    }
}
