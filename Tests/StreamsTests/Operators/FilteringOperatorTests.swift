import Streams
import Testing

/// tryFilter, tryCompactMap, tryRemoveDuplicates, dropFirst, drop(while:), prefix, output(in:),
/// ignoreOutput and scan: per-value operators that may drop values or end the stream early.
@Suite struct FilteringOperatorTests {
    @Test func tryFilterKeepsMatchesAndReplacesDemandForDropped() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>(initialDemand: .max(1))
        upstream.tryFilter { $0 > 1 }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(subscriber.values.map { $0 } == [2])
        subscriber.cancel()
    }

    @Test func tryFilterFailsOnceAndCancelsUpstreamWhenTheClosureThrows() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>()
        upstream.tryFilter { _ in throw TestError(1) }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.finish()
        #expect(subscriber.log == ["sub", "failure(E1)"])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func tryCompactMapDropsNilsAndFailsOnThrow() {
        let subscriber = TrackingSubscriber<Int, Error>()
        ["1", "x", "3", "boom"].publisher.tryCompactMap { text -> Int? in
            if text == "boom" { throw TestError(2) }
            return Int(text)
        }.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "3", "failure(E2)"])
    }

    @Test func tryRemoveDuplicatesDropsRepeatsAndFailsOnThrow() {
        let subscriber = TrackingSubscriber<Int, Error>()
        [1, 1, 2, 3].publisher.tryRemoveDuplicates { previous, next in
            if next == 3 { throw TestError(3) }
            return previous == next
        }.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "2", "failure(E3)"])
    }

    @Test func dropFirstAcceptsANegativeCountUntilSubscribed() {
        // As in Combine, only subscribing traps on a negative count.
        let publisher = Publishers.Drop(upstream: PassthroughSubject<Int, Never>(), count: -1)
        #expect(publisher.count == -1)
    }

    @Test func dropFirstAsksForTheCountWithTheFirstDemandAndDropsWithoutAskingAgain() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.dropFirst(2).subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.max(3)])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        upstream.send(3)
        #expect(subscriber.values == [3])
        subscriber.request(.max(4))
        #expect(upstream.subscription?.requests == [.max(3), .max(4)])
        subscriber.cancel()
    }

    @Test func dropFirstHandsItsSubscriptionDownstreamBeforeTheUpstreamArrives() throws {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(10))
        upstream.dropFirst(4).subscribe(subscriber)
        #expect(subscriber.log == ["sub"])
        let subscription = TestSubscription()
        try #require(upstream.subscriber).receive(subscription: subscription)
        #expect(subscription.requests == [.max(14)])
        let second = TestSubscription()
        try #require(upstream.subscriber).receive(subscription: second)
        #expect(second.cancelCount == 1)
        #expect(subscriber.log == ["sub"])
        subscriber.cancel()
    }

    @Test func dropFirstLeavesAnUpstreamArrivingAfterACancelAlone() throws {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.dropFirst(0).subscribe(subscriber)
        subscriber.cancel()
        let subscription = TestSubscription()
        try #require(upstream.subscriber).receive(subscription: subscription)
        #expect(subscription.requests.isEmpty)
        #expect(subscription.cancelCount == 0)
    }

    @Test func dropFirstPassesOnAValueBeforeTheUpstreamsSubscription() throws {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.dropFirst(0).subscribe(subscriber)
        _ = try #require(upstream.subscriber).receive(5)
        try #require(upstream.subscriber).receive(completion: .finished)
        #expect(subscriber.log == ["sub", "5", "finished"])
    }

    @Test func dropWhileDropsUntilThePredicateFirstFails() {
        let plain = TrackingSubscriber<Int, Never>()
        let throwing = TrackingSubscriber<Int, Error>()
        [1, 2, 5, 1].publisher.drop { $0 < 3 }.subscribe(plain)
        [1, 2].publisher.tryDrop { _ in throw TestError(4) }.subscribe(throwing)
        #expect(plain.log == ["sub", "5", "1", "finished"])
        #expect(throwing.log == ["sub", "failure(E4)"])
    }

    @Test func prefixPublishesUpToTheCountThenCancelsUpstreamAndFinishes() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.prefix(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func outputInRangePassesBackTheDemandReturnedForItsLastValue() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demandPerValue: .max(4))
        upstream.output(in: 1..<3).subscribe(subscriber)
        upstream.send(0)
        #expect(upstream.send(1) == .max(4))
        #expect(upstream.send(2) == .max(4))
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
    }

    /// As Combine's: values that arrive before the upstream's subscription are counted and
    /// passed on, but neither the range's end nor an early completion ends the stream; the
    /// first value beyond the range after the subscription does.
    @Test func outputInPassesValuesBeforeTheSubscriptionButEndsOnlyOnceSubscribed() {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demandPerValue: .max(42))
        upstream.output(in: 1..<3).subscribe(subscriber)
        upstream.subscriber?.receive(completion: .finished)
        #expect(upstream.subscriber?.receive(1) == .max(1))
        #expect(upstream.subscriber?.receive(2) == .max(42))
        #expect(upstream.subscriber?.receive(3) == .max(42))
        #expect(upstream.subscriber?.receive(4) == Subscribers.Demand.none)
        #expect(subscriber.log == ["2", "3"])
        let subscription = TestSubscription()
        upstream.subscriber?.receive(subscription: subscription)
        #expect(upstream.subscriber?.receive(5) == Subscribers.Demand.none)
        #expect(subscriber.log == ["2", "3", "sub", "finished"])
        #expect(subscription.cancelCount == 1)
    }

    @Test func prefixWhileFinishesAtTheFirstFailingElement() {
        let plain = TrackingSubscriber<Int, Never>()
        let throwing = TrackingSubscriber<Int, Error>()
        [1, 2, 5, 1].publisher.prefix { $0 < 3 }.subscribe(plain)
        [1, 2].publisher.tryPrefix { value in
            if value == 2 { throw TestError(5) }
            return true
        }.subscribe(throwing)
        #expect(plain.log == ["sub", "1", "2", "finished"])
        #expect(throwing.log == ["sub", "1", "failure(E5)"])
    }

    @Test func outputAtAndInSelectByIndex() {
        let at = TrackingSubscriber<Int, Never>()
        let range = TrackingSubscriber<Int, Never>()
        let open = TrackingSubscriber<Int, Never>()
        [10, 11, 12, 13].publisher.output(at: 2).subscribe(at)
        [10, 11, 12, 13].publisher.output(in: 1...2).subscribe(range)
        [10, 11, 12, 13].publisher.output(in: 2...).subscribe(open)
        #expect(at.log == ["sub", "12", "finished"])
        #expect(range.log == ["sub", "11", "12", "finished"])
        #expect(open.log == ["sub", "12", "13", "finished"])
    }

    @Test func outputInHonoursLimitedDemand() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        [10, 11, 12, 13].publisher.output(in: 1...2).subscribe(subscriber)
        #expect(subscriber.log == ["sub", "11"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "11", "12", "finished"])
    }

    @Test func ignoreOutputPassesTheUpstreamsSubscriptionThroughAndAsksForEverything() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Never, Never>(initialDemand: .max(1))
        upstream.ignoreOutput().subscribe(subscriber)
        #expect(subscriber.subscription as? TestSubscription === upstream.subscription)
        #expect(upstream.subscription?.requests == [.max(1), .unlimited])
        subscriber.cancel()
    }

    @Test func ignoreOutputDrainsTheUpstreamAndPassesTheCompletion() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Never, TestError>(initialDemand: .none)
        upstream.ignoreOutput().subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.unlimited])
        upstream.send(1)
        upstream.fail(TestError(7))
        #expect(subscriber.log == ["sub", "failure(E7)"])
    }

    @Test func scanPublishesEveryRunningResult() {
        let subscriber = TrackingSubscriber<Int, Never>()
        [1, 2, 3].publisher.scan(0, +).subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "3", "6", "finished"])
    }

    @Test func scanKeepsItsRunningResultPerSubscription() {
        let scanned = [1, 2].publisher.scan(0, +)
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        scanned.subscribe(first)
        scanned.subscribe(second)
        #expect(second.values == [1, 3])
    }

    @Test func tryScanFailsWithTheThrownError() {
        let subscriber = TrackingSubscriber<Int, Error>()
        [1, 2, 3].publisher.tryScan(0) { total, value in
            if value == 3 { throw TestError(8) }
            return total + value
        }.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "3", "failure(E8)"])
    }

    @Test func aCancelledFilteringOperatorDeliversNothingMore() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.dropFirst().subscribe(subscriber)
        subscriber.cancel()
        upstream.send(1)
        upstream.send(2)
        upstream.finish()
        #expect(subscriber.log == ["sub"])
        #expect(upstream.subscription?.cancelCount == 1)
    }
}
