import Streams
import Testing

@Suite struct TypeErasureTests {
    @Test func anyPublisherForwardsToTheWrappedPublisher() {
        let erased: AnyPublisher<Int, Never> = [1, 2].publisher.eraseToAnyPublisher()
        let subscriber = TrackingSubscriber<Int, Never>()
        erased.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
    }

    @Test func erasingTwiceReusesTheBox() {
        let erased = Just(1).eraseToAnyPublisher()
        let twice = erased.eraseToAnyPublisher()
        let subscriber = TrackingSubscriber<Int, Never>()
        twice.subscribe(subscriber)
        #expect(subscriber.values == [1])
    }

    @Test func anySubscriberForwardsEveryCallAndKeepsTheIdentifier() {
        let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
        let erased = AnySubscriber(tracking)
        #expect(erased.combineIdentifier == tracking.combineIdentifier)
        let subscription = TestSubscription()
        erased.receive(subscription: subscription)
        #expect(erased.receive(5) == .max(2))
        erased.receive(completion: .finished)
        #expect(tracking.log == ["sub", "5", "finished"])
        #expect(subscription.requests == [.max(1)])
    }

    @Test func closureAnySubscriberReturnsNoneWithoutAValueClosure() {
        let erased = AnySubscriber<Int, Never>()
        #expect(erased.receive(1) == .none)
    }

    @Test func anySubscriberWrappingASubjectForwardsIntoIt() {
        let subject = PassthroughSubject<Int, Never>()
        let tracking = TrackingSubscriber<Int, Never>()
        subject.subscribe(tracking)
        [1, 2].publisher.subscribe(AnySubscriber(subject))
        #expect(tracking.log == ["sub", "1", "2", "finished"])
    }
}
