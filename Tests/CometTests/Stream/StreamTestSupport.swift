import Locking
import Dispatch
import Foundation
import Synchronization
@testable import Comet
import CometTestSupport

/// A subscriber that records what it receives, with a chosen initial demand and extra demand
/// per value; it can cancel and request later through ``subscription``.
final class StreamRecorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    enum Event {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    private struct State {
        var events: [Event] = []
        var subscription: Subscription?
        var queueLabels: [String?] = []
    }

    private let state = Locked(State())
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: Subscribers.Demand

    init(initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
    }

    var events: [Event] { state.withLock { $0.events } }
    var values: [Input] { events.compactMap { if case .value(let v) = $0 { v } else { nil } } }
    var completion: Subscribers.Completion<Failure>? {
        events.lazy.compactMap { if case .completion(let c) = $0 { c } else { nil } }.first
    }
    var isFinished: Bool { if case .finished? = completion { true } else { false } }
    var failure: Failure? { if case .failure(let e)? = completion { e } else { nil } }
    /// The label of the dispatch queue each value and the completion arrived on.
    var queueLabels: [String?] { state.withLock { $0.queueLabels } }
    var subscription: Subscription? { state.withLock { $0.subscription } }

    func receive(subscription: Subscription) {
        state.withLock { $0.subscription = subscription }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        record(.value(input))
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        record(.completion(completion))
    }

    private func record(_ event: Event) {
        let label = DispatchQueue.getSpecific(key: QueueLabel.key)
        state.withLock {
            $0.events.append(event)
            $0.queueLabels.append(label)
        }
    }

    /// Waits until a completion arrived.
    func waitForCompletion(within seconds: Double = 120) async -> Bool {
        await eventually(within: seconds) { completion != nil }
    }
}

/// Tags dispatch queues so tests can tell where a callback ran.
enum QueueLabel {
    static let key = DispatchSpecificKey<String>()

    static func queue(_ label: String) -> DispatchQueue {
        let queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: label)
        return queue
    }
}

/// A thread-safe list for sink closures.
final class Collected<T>: @unchecked Sendable {
    private let items = Locked<[T]>([])
    private let done = Atomic<Bool>(false)

    func append(_ item: T) { items.withLock { $0.append(item) } }
    var all: [T] { items.withLock { $0 } }
    var count: Int { all.count }
    func finish() { done.store(true, ordering: .relaxed) }
    var isDone: Bool { done.load(ordering: .relaxed) }
}

/// A failure image tests can recognise (1×1).
let testFailureImage = TestImages.image(width: 1, height: 1)
