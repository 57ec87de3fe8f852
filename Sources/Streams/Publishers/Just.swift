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
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: JustSubscription(value: output, downstream: subscriber))
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// Delivers one value then `.finished` on first demand; a lock guards the one-shot state.
final class JustSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, @unchecked Sendable {
    private let pending: Locked<(value: Downstream.Input, downstream: Downstream)?>

    init(value: Downstream.Input, downstream: Downstream) {
        pending = Locked((value, downstream))
    }

    var description: String { "Just" }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        guard let (value, downstream) = pending.withLock({ state in
            defer { state = nil }
            return state
        }) else { return }
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    func cancel() {
        let dropped = pending.withLock { state in
            defer { state = nil }
            return state
        }
        _ = dropped
    }
}
