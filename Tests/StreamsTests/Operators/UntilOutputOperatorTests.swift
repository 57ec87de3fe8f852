import Streams
import Testing

/// drop(untilOutputFrom:) and prefix(untilOutputFrom:): order, demand and the trigger, as in Combine.
@Suite struct UntilOutputOperatorTests {
    @Test func dropUntilOutputFromDropsUntilTheTriggerFiresReturningNoDemand() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<Void, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(trigger.subscription?.requests == [.max(1)])
        #expect(upstream.send(1) == .none)
        trigger.send(())
        upstream.send(2)
        upstream.finish()
        #expect(subscriber.log == ["sub", "2", "finished"])
    }

    @Test func dropUntilOutputFromLetsGoOfTheTriggerWithoutCancellingItWhenItFires() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<Void, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send(())
        subscriber.cancel()
        #expect(trigger.subscription?.cancelCount == 0)
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func dropUntilOutputFromPassesTheDownstreamsDemandBackOnceTriggered() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<Void, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demandPerValue: .max(3))
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send(())
        #expect(upstream.send(1) == .max(3))
        subscriber.cancel()
    }

    @Test func dropUntilOutputFromHandsTheSubscriptionDownBeforeSubscribingToTheTriggerThenTheUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<Void, Never>()
        var order: [String] = []
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        trigger.onSubscribe = { _ in order.append("trigger \(upstream.subscribeCount)") }
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(order == ["trigger 0"])
        #expect(subscriber.subscriptionCount == 1)
        subscriber.cancel()
    }

    @Test func dropUntilOutputFromRequestsTheDemandMadeBeforeTheUpstreamsSubscription() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = TestPublisher<Void, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(10))
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        subscriber.request(.max(4))
        let subscription = TestSubscription()
        upstream.subscriber?.receive(subscription: subscription)
        #expect(subscription.requests == [.max(14)])
        subscriber.cancel()
    }

    @Test func dropUntilOutputFromFinishesAndCancelsTheUpstreamWhenTheTriggerFinishesFirst() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<Void, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.finish()
        #expect(subscriber.log == ["sub", "finished"])
        #expect(upstream.subscription?.cancelCount == 1)
        #expect(trigger.subscription?.cancelCount == 0)
    }

    @Test func dropUntilOutputFromIgnoresTheTriggersCompletionOnceItFired() {
        let upstream = TestPublisher<Int, TestError>()
        let trigger = TestPublisher<Void, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send(())
        trigger.fail(TestError(1))
        upstream.send(2)
        #expect(subscriber.log == ["sub", "2"])
        #expect(upstream.subscription?.cancelCount == 0)
        subscriber.cancel()
    }

    @Test func dropUntilOutputFromsSubscribersShareOneIdentifier() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = ManualPublisher<Void, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(upstream.subscriber?.combineIdentifier == trigger.subscriber?.combineIdentifier)
        subscriber.cancel()
    }

    @Test func dropUntilOutputFromFailsWhenTheTriggerFails() {
        let upstream = TestPublisher<Int, TestError>()
        let trigger = TestPublisher<Void, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.fail(TestError(1))
        #expect(subscriber.log == ["sub", "failure(E1)"])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func prefixUntilOutputFromFinishesAndCancelsBothWhenTheTriggerFires() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        upstream.send(1)
        trigger.send(0)
        upstream.send(2)
        #expect(subscriber.log == ["sub", "1", "finished"])
        #expect(upstream.subscription?.cancelCount == 1)
        #expect(trigger.subscription?.cancelCount == 0)
    }

    @Test func prefixUntilOutputFromPassesAZeroRequestToTheUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.subscription?.requests == [.none])
        subscriber.cancel()
    }

    @Test func prefixUntilOutputFromFinishesWhenTheTriggerFiresBeforeTheUpstreamsSubscription() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send(1)
        #expect(subscriber.log == ["finished"])
        let late = TestSubscription()
        upstream.subscriber?.receive(subscription: late)
        #expect(late.cancelCount == 1)
    }

    @Test func prefixUntilOutputFromIgnoresEventsBeforeTheUpstreamsSubscriptionButACompletionCancelsTheTrigger() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(upstream.subscriber?.receive(1) == Subscribers.Demand.none)
        #expect(trigger.subscription?.cancelCount == 0)
        upstream.subscriber?.receive(completion: .finished)
        #expect(subscriber.log == [])
        #expect(trigger.subscription?.cancelCount == 1)
    }

    @Test func prefixUntilOutputFromIgnoresATriggerValueBeforeTheTriggersSubscription() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        _ = trigger.subscriber?.receive(1)
        upstream.send(2)
        #expect(subscriber.log == ["sub", "2"])
        subscriber.cancel()
    }

    @Test func prefixUntilOutputFromCancelCancelsTheUpstreamAndTheTrigger() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.subscription?.cancelCount == 1)
        #expect(trigger.subscription?.cancelCount == 1)
    }

    @Test func prefixUntilOutputFromsSubscribersShareOneIdentifier() {
        let upstream = ManualPublisher<Int, Never>()
        let trigger = ManualPublisher<Void, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(upstream.subscriber?.combineIdentifier == trigger.subscriber?.combineIdentifier)
    }

    @Test func prefixUntilOutputFromFiredDuringDeliveryFinishesAfterIt() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(onValue: { _, _ in trigger.send(()) })
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        upstream.send(1)
        #expect(subscriber.log == ["sub", "1", "finished"])
    }

    @Test func prefixUntilOutputFromIgnoresWhatTheTriggerSendsAfterItsCompletion() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.fail(TestError(1))
        trigger.send(42)
        upstream.send(1)
        #expect(subscriber.log == ["sub", "1"])
        #expect(upstream.subscription?.cancelCount == 0)
        subscriber.cancel()
    }

    @Test func cancellingUntilOutputOperatorsCancelsTheTriggerToo() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<Void, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.subscription?.cancelCount == 1)
        #expect(trigger.subscription?.cancelCount == 1)
    }
}
