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
        // The delivery closure is formed here, in the caller's specialised code (see
        // `Publishers.Sequence`), so delivery does not run as unspecialised generic code.
        let output = self.output
        subscriber.receive(
            subscription: JustSubscription(name: .just, output: output) {
                _ = subscriber.receive(output)
                subscriber.receive(completion: .finished)
            }
        )
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// Delivers one value then `.finished` on first demand. A non-generic atomic flag decides who
/// gets to deliver (or cancel); only that thread touches the delivery closure.
///
/// The value and the downstream live in the delivery closure rather than in generic stored
/// properties: the class is not generic, so releasing it (its `deinit` always runs
/// unspecialised) needs no generic metadata.
@usableFromInline
final class JustSubscription: Subscription, CombineReflectable, @unchecked Sendable {
    @usableFromInline let isDone = Atomic<Bool>(false)
    @exclusivity(unchecked) @usableFromInline var delivery: (() -> Void)?  // owned by whoever sets `isDone`
    @usableFromInline let name: Name
    /// The value, for the mirror only.
    @usableFromInline let output: Any

    /// The publisher a one-value subscription serves, which gives it Combine's name.
    @usableFromInline
    enum Name: UInt8 {
        case just, optional, once
    }

    @inlinable
    init(name: Name, output: Any, delivery: @escaping () -> Void) {
        self.name = name
        self.output = output
        self.delivery = delivery
    }

    @usableFromInline var description: String {
        switch name {
        case .just: "Just"
        case .optional: "Optional"
        case .once: "Once"
        }
    }

    /// One unlabelled child: the value, as Combine shows it.
    @usableFromInline var customMirror: Mirror {
        Mirror(self, children: [(label: nil, value: output)])
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        guard demand > 0, !isDone.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let delivery = self.delivery
        self.delivery = nil
        delivery?()
    }

    @inlinable
    func cancel() {
        guard !isDone.exchange(true, ordering: .acquiringAndReleasing) else { return }
        delivery = nil
    }
}
