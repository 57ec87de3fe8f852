import Streams
import Testing

@Suite struct ConcatenateTests {
    @Test func appendForwardsPrefixThenSuffix() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Publishers.Concatenate(prefix: [1, 2].publisher, suffix: [3, 4].publisher).subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "2", "3", "4", "finished"])
    }

    @Test func suffixIsSubscribedOnlyAfterPrefixFinishes() {
        let prefix = TestPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        prefix.append(suffix).subscribe(subscriber)
        prefix.send(1)
        #expect(suffix.subscribeCount == 0)
        prefix.finish()
        #expect(suffix.subscribeCount == 1)
        suffix.send(2)
        suffix.finish()
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
    }

    @Test func suffixReceivesTheRemainingDemand() {
        let prefix = TestPublisher<Int, Never>()
        let suffix = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(5))
        prefix.append(suffix).subscribe(subscriber)
        prefix.send(1)
        prefix.send(2)
        prefix.finish()
        #expect(suffix.subscription?.requests == [.max(3)])
        subscriber.cancel()  // the stream is still live: end it
    }

    @Test func demandRequestedBetweenPrefixAndSuffixIsCarried() {
        let prefix = TestPublisher<Int, Never>()
        let suffix = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        prefix.append(suffix).subscribe(subscriber)
        prefix.send(1)
        subscriber.request(.max(2))
        #expect(prefix.subscription?.requests == [.max(1), .max(2)])
        prefix.finish()
        #expect(suffix.subscription?.requests == [.max(2)])
        subscriber.cancel()  // the stream is still live: end it
    }

    @Test func prefixFailureSkipsTheSuffix() {
        let prefix = TestPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        prefix.append(suffix).subscribe(subscriber)
        prefix.fail(TestError(1))
        #expect(suffix.subscribeCount == 0)
        #expect(subscriber.log == ["sub", "failure(E1)"])
    }

    @Test func cancelDuringPrefixCancelsItAndNeverSubscribesSuffix() {
        let prefix = TestPublisher<Int, Never>()
        let suffix = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        prefix.append(suffix).subscribe(subscriber)
        subscriber.cancel()
        prefix.finish()
        #expect(prefix.subscription?.cancelCount == 1)
        #expect(suffix.subscribeCount == 0)
        #expect(subscriber.log == ["sub"])
    }

    @Test func appendValuesAndPrependValues() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Just(2).append(3, 4).prepend(0, 1).subscribe(subscriber)
        #expect(subscriber.values == [0, 1, 2, 3, 4])
    }

    @Test func prependPublisherComesFirst() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Just(2).prepend(Just(1)).subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
    }

    @Test func appendRespectsLimitedDemandAcrossTheBoundary() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        Publishers.Concatenate(prefix: [1, 2].publisher, suffix: [3, 4].publisher).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completions.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "1", "2", "3", "4", "finished"])
    }

    @Test func aRequestAfterTheSwitchGoesToTheSuffixOnce() {
        let prefix = TestPublisher<Int, Never>()
        let suffix = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        prefix.append(suffix).subscribe(subscriber)
        prefix.send(1)
        prefix.finish()
        subscriber.request(.max(3))
        #expect(suffix.subscription?.requests == [.max(1), .max(3)])
        subscriber.cancel()
    }

    @Test func aSynchronousPrefixLeavesTheSuffixOneRequestForTheRest() {
        let suffix = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        Just(1).append(suffix).subscribe(subscriber)
        #expect(suffix.subscription?.requests == [.max(2)])
        subscriber.cancel()
    }

    @Test func aPrefixValueAfterItsCompletionIsNotForwarded() {
        let prefix = ManualPublisher<Int, Never>()
        let suffix = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        prefix.append(suffix).subscribe(subscriber)
        prefix.subscriber?.receive(subscription: TestSubscription())
        _ = prefix.subscriber?.receive(1)
        prefix.subscriber?.receive(completion: .finished)
        #expect(prefix.subscriber?.receive(2) == Subscribers.Demand.none)
        prefix.subscriber?.receive(completion: .finished)
        suffix.send(3)
        #expect(subscriber.values == [1, 3])
        #expect(suffix.subscribeCount == 1)
        subscriber.cancel()
    }
}

@Suite struct ConcatenateDemandTests {
    @Test func appendDropsAValueTheDownstreamHasNotDemanded() {
        let prefix = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        prefix.append(Empty()).subscribe(subscriber)
        prefix.send(1)
        #expect(prefix.send(2) == .none)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        subscriber.cancel()
    }

    @Test func appendPassesAZeroRequestToTheCurrentUpstream() {
        let prefix = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        prefix.append(Empty()).subscribe(subscriber)
        subscriber.request(.none)
        #expect(prefix.subscription?.requests == [.max(2), .none])
        subscriber.cancel()
    }
}
