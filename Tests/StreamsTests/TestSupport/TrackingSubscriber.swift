import Locking
import Streams
import Synchronization

/// Records everything it receives, in order, and lets a test drive demand by hand.
///
/// - `initialDemand` is requested inside `receive(subscription:)` (unless `.none`).
/// - `demandPerValue` is returned from every `receive(_:)`.
/// - `onValue` runs inside `receive(_:)` (before returning) to test re-entrant behaviour.
/// Thread-safe: events are appended under a mutex, so it can be used from stress tests.
final class TrackingSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    enum Event {
        case subscription
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    private let events = Locked<[Event]>([])  // only appended/read under the lock
    private let subscriptionBox = Locked<[Subscription]>([])
    let initialDemand: Subscribers.Demand
    let demandPerValue: Subscribers.Demand
    let onValue: ((TrackingSubscriber, Input) -> Void)?

    init(
        initialDemand: Subscribers.Demand = .unlimited,
        demandPerValue: Subscribers.Demand = .none,
        onValue: ((TrackingSubscriber, Input) -> Void)? = nil
    ) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
        self.onValue = onValue
    }

    func receive(subscription: Subscription) {
        let count = withUnsafeSubscriptions {
            $0.append(subscription); return $0.count
        }
        append(.subscription)
        if count == 1, initialDemand > 0 {
            subscription.request(initialDemand)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        append(.value(input))
        onValue?(self, input)
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        append(.completion(completion))
    }

    // MARK: Driving

    /// The first subscription received.
    var subscription: Subscription? { withUnsafeSubscriptions { $0.first } }
    /// How many subscriptions were received (must be 1).
    var subscriptionCount: Int { withUnsafeSubscriptions { $0.count } }

    func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }
    func cancel() { subscription?.cancel() }

    // MARK: Inspection

    var allEvents: [Event] { copyEvents() }
    var values: [Input] {
        copyEvents().compactMap { if case .value(let v) = $0 { return v } else { return nil } }
    }
    var completions: [Subscribers.Completion<Failure>] {
        copyEvents().compactMap { if case .completion(let c) = $0 { return c } else { return nil } }
    }
    var isFinished: Bool {
        completions.contains { if case .finished = $0 { return true } else { return false } }
    }
    var failures: [Failure] {
        completions.compactMap { if case .failure(let e) = $0 { return e } else { return nil } }
    }
    /// A compact description of the event sequence, e.g. `["sub", "1", "2", "finished"]`.
    var log: [String] {
        copyEvents().map {
            switch $0 {
            case .subscription: return "sub"
            case .value(let v): return "\(v)"
            case .completion(.finished): return "finished"
            case .completion(.failure(let e)): return "failure(\(e))"
            }
        }
    }

    private func append(_ event: Event) {
        let boxed = UncheckedBox(event)
        events.withLock { $0.append(boxed.value) }
    }

    private func copyEvents() -> [Event] {
        events.withLock { UncheckedBox($0) }.value
    }

    private func withUnsafeSubscriptions<R>(_ body: (inout [Subscription]) -> R) -> R {
        subscriptionBox.withLock { subs in UncheckedBox(body(&subs)) }.value
    }
}

/// Test-only escape hatch for moving values through `Mutex` (its API needs `sending`).
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

struct TestError: Error, Equatable, CustomStringConvertible {
    let code: Int
    init(_ code: Int = 0) { self.code = code }
    var description: String { "E\(code)" }
}
