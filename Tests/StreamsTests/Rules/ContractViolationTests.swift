import Streams
import Testing

/// What the operators with a subscription of their own do when their upstream breaks the
/// contract (events before its subscription, two subscriptions) or the downstream cancels
/// before the upstream has subscribed: as Combine does, nothing reaches the downstream before
/// the subscription, and a subscription that arrives after a cancel is left alone.
@Suite struct ContractViolationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable (ManualPublisher<Int, Never>) -> AnyPublisher<Int, Error>
        var testDescription: String { name }

        static let all: [Case] = [
            Case(name: "tryMap") { $0.tryMap { $0 }.eraseToAnyPublisher() },
            Case(name: "handleEvents") { $0.handleEvents().setFailureType(to: Error.self).eraseToAnyPublisher() },
            Case(name: "drop(while:)") { $0.drop { _ in false }.setFailureType(to: Error.self).eraseToAnyPublisher() },
            Case(name: "encode") { $0.encode(encoder: IntCoder()).eraseToAnyPublisher() },
            Case(name: "measureInterval") {
                $0.measureInterval(using: ImmediateScheduler.shared).map { _ in 0 }.setFailureType(to: Error.self)
                    .eraseToAnyPublisher()
            },
            Case(name: "receive(on:)") {
                $0.receive(on: ImmediateScheduler.shared).setFailureType(to: Error.self).eraseToAnyPublisher()
            },
        ]
    }

    @Test(arguments: Case.all)
    func aSubscriptionArrivingAfterACancelIsNeitherAskedNorCancelled(subject: Case) throws {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>()
        subject.make(upstream).subscribe(subscriber)
        try #require(upstream.operatorSubscription).cancel()
        let late = TestSubscription()
        upstream.subscriber?.receive(subscription: late)
        #expect(late.requests.isEmpty)
        #expect(late.cancelCount == 0)
        #expect(subscriber.log.isEmpty)
    }

    @Test(arguments: Case.all)
    func eventsBeforeTheSubscriptionReachNoOne(subject: Case) {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>()
        subject.make(upstream).subscribe(subscriber)
        #expect(upstream.subscriber?.receive(1) == Subscribers.Demand.none)
        upstream.subscriber?.receive(completion: .finished)
        #expect(subscriber.log.isEmpty)
        // The stream is still waiting for its subscription and works once it arrives.
        upstream.subscriber?.receive(subscription: TestSubscription())
        _ = upstream.subscriber?.receive(2)
        #expect(subscriber.log.count == 2)
        subscriber.cancel()
    }

    @Test(arguments: Case.all)
    func aSecondSubscriptionIsCancelled(subject: Case) {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>()
        subject.make(upstream).subscribe(subscriber)
        upstream.subscriber?.receive(subscription: TestSubscription())
        let second = TestSubscription()
        upstream.subscriber?.receive(subscription: second)
        #expect(second.cancelCount == 1)
        #expect(subscriber.subscriptionCount == 1)
        subscriber.cancel()
    }
}

/// Encodes an `Int` as itself.
private struct IntCoder: TopLevelEncoder {
    func encode<T: Encodable>(_ value: T) throws -> Int { value as? Int ?? 0 }
}
