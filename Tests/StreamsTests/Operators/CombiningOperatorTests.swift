import Streams
import Testing

@Suite struct CombiningOperatorTests {
    @Test func mergeInterleavesValuesInArrivalOrder() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        a.merge(with: b).subscribe(subscriber)
        a.send(1)
        b.send(2)
        a.send(3)
        #expect(subscriber.values == [1, 2, 3])
        subscriber.cancel()  // the stream is still live: end it
    }

    @Test func mergeFinishesWhenAllUpstreamsFinish() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        a.merge(with: b).subscribe(subscriber)
        a.send(completion: .finished)
        #expect(subscriber.completions.isEmpty)
        b.send(completion: .finished)
        #expect(subscriber.isFinished)
    }

    @Test func mergeFailsOnFirstFailureAndCancelsTheOthers() {
        let a = TestPublisher<Int, TestError>()
        let b = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        a.merge(with: b).subscribe(subscriber)
        a.fail(TestError(1))
        #expect(subscriber.failures == [TestError(1)])
        #expect(b.subscription?.cancelCount == 1)
    }

    @Test func mergeHonoursDemand() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        Publishers.MergeMany([1, 2].publisher, [3, 4].publisher).subscribe(subscriber)
        #expect(subscriber.values.count == 3)
        subscriber.request(.max(5))
        #expect(Set(subscriber.values) == [1, 2, 3, 4])
        #expect(subscriber.isFinished)
    }

    @Test func combineLatestEmitsOnceBothHaveValues() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let subscriber = TrackingSubscriber<(Int, String), Never>()
        a.combineLatest(b).subscribe(subscriber)
        a.send(1)
        a.send(2)
        b.send("x")
        a.send(3)
        b.send("y")
        #expect(subscriber.values.map { "\($0.0)\($0.1)" } == ["2x", "3x", "3y"])
        subscriber.cancel()  // the stream is still live: end it
    }

    @Test func combineLatestFinishesWhenBothFinish() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<(Int, Int), Never>()
        a.combineLatest(b).subscribe(subscriber)
        a.send(1)
        b.send(1)
        a.send(completion: .finished)
        #expect(subscriber.completions.isEmpty)
        b.send(completion: .finished)
        #expect(subscriber.isFinished)
    }

    @Test func combineLatestWithTransform() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Just(2).combineLatest(Just(3)) { $0 * $1 }.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "6", "finished"])
    }

    @Test func zipPairsValuesByIndex() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let subscriber = TrackingSubscriber<(Int, String), Never>()
        a.zip(b).subscribe(subscriber)
        a.send(1)
        b.send("a")
        b.send("b")
        a.send(2)
        #expect(subscriber.values.map { "\($0.0)\($0.1)" } == ["1a", "2b"])
        subscriber.cancel()  // the stream is still live: end it
    }

    @Test func zipOfSequencesFinishesWithTheShorter() {
        let subscriber = TrackingSubscriber<(Int, Int), Never>()
        [1, 2, 3].publisher.zip([10, 20].publisher).subscribe(subscriber)
        #expect(subscriber.values.map { $0.0 + $0.1 } == [11, 22])
        #expect(subscriber.isFinished)
    }

    @Test func flatMapMergesChildren() {
        let subscriber = TrackingSubscriber<Int, Never>()
        [1, 2].publisher.flatMap { [$0 * 10, $0 * 10 + 1].publisher }.subscribe(subscriber)
        #expect(subscriber.values.sorted() == [10, 11, 20, 21])
        #expect(subscriber.isFinished)
    }

    @Test func flatMapLimitsConcurrentChildren() {
        let children = [TestPublisher<Int, Never>(), TestPublisher<Int, Never>()]
        let subscriber = TrackingSubscriber<Int, Never>()
        [0, 1].publisher.flatMap(maxPublishers: .max(1)) { children[$0] }.subscribe(subscriber)
        #expect(children[0].subscribeCount == 1)
        #expect(children[1].subscribeCount == 0)
        children[0].send(5)
        children[0].finish()
        #expect(children[1].subscribeCount == 1)
        children[1].send(6)
        children[1].finish()
        #expect(subscriber.log == ["sub", "5", "6", "finished"])
    }

    @Test func flatMapFailureFromAChildCancelsTheRest() {
        let upstream = TestPublisher<Int, TestError>()
        let child = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        upstream.flatMap { _ in child }.subscribe(subscriber)
        upstream.send(1)
        child.fail(TestError(9))
        #expect(subscriber.failures == [TestError(9)])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func switchToLatestCancelsThePreviousInnerPublisher() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(subscriber)
        outer.send(first)
        first.send(1)
        outer.send(second)
        first.send(2)
        second.send(3)
        #expect(subscriber.values == [1, 3])
        subscriber.cancel()  // the stream is still live: end it
    }

    @Test func switchToLatestFinishesAfterOuterAndCurrentInnerFinish() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(subscriber)
        outer.send(inner)
        outer.send(completion: .finished)
        #expect(subscriber.completions.isEmpty)
        inner.send(completion: .finished)
        #expect(subscriber.isFinished)
    }

    @Test func zipRequestsEachDownstreamDemandFromEveryUpstream() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<(Int, Int), Never>(initialDemand: .max(1))
        a.zip(b).subscribe(subscriber)
        subscriber.request(.max(2))
        #expect(a.subscription?.requests == [.max(1), .max(2)])
        #expect(b.subscription?.requests == [.max(1), .max(2)])
        subscriber.cancel()
    }

    @Test func zipGivesDemandReturnedFromReceiveToTheCompletingUpstreamThroughItsReturn() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<(Int, Int), Never>(initialDemand: .max(1), demandPerValue: .max(1))
        a.zip(b).subscribe(subscriber)
        #expect(a.send(1) == .none)
        #expect(b.send(2) == .max(1))
        #expect(a.subscription?.requests == [.max(1), .max(1)])
        #expect(b.subscription?.requests == [.max(1)])
        subscriber.cancel()
    }

    @Test func zipGivesDemandRequestedDuringADeliveryToTheCompletingUpstreamThroughItsReturn() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<(Int, Int), Never>(initialDemand: .max(10)) { subscriber, _ in
            subscriber.request(.max(5))
        }
        a.zip(b).subscribe(subscriber)
        a.send(1)
        #expect(b.send(2) == .max(5))
        #expect(a.subscription?.requests == [.max(10), .max(5)])
        #expect(b.subscription?.requests == [.max(10)])
        subscriber.cancel()
    }

    @Test func zipDeliversEveryTupleWithinDemandAndHoldsTheRest() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<(Int, Int), Never>(initialDemand: .max(2))
        a.zip(b).subscribe(subscriber)
        for value in 1...3 { a.send(value) }
        for value in 1...3 { b.send(value * 10) }
        #expect(subscriber.values.map { $0.0 } == [1, 2])
        subscriber.request(.max(1))
        #expect(subscriber.values.map { $0.1 } == [10, 20, 30])
        subscriber.cancel()
    }

    @Test func zipFinishesWhenAFinishedUpstreamRunsOut() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<(Int, Int), Never>()
        a.zip(b).subscribe(subscriber)
        a.send(1)
        a.finish()
        #expect(subscriber.completions.isEmpty)
        b.send(10)
        #expect(subscriber.log == ["sub", "(1, 10)", "finished"])
        #expect(b.subscription?.cancelCount == 1)
    }

    @Test func zipOfThreeAndFourPairsByIndex() {
        let three = TrackingSubscriber<(Int, String, Int), Never>()
        [1, 2].publisher.zip(["a", "b", "c"].publisher, [10, 20].publisher).subscribe(three)
        #expect(three.log == ["sub", "(1, \"a\", 10)", "(2, \"b\", 20)", "finished"])
        let four = TrackingSubscriber<Int, Never>()
        [1].publisher.zip([2].publisher, [3].publisher, [4].publisher) { $0 + $1 + $2 + $3 }.subscribe(four)
        #expect(four.log == ["sub", "10", "finished"])
    }

    @Test func zipFailureCancelsTheOthersAndDropsQueuedTuples() {
        let a = TestPublisher<Int, TestError>()
        let b = TestPublisher<Int, TestError>()
        let c = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<(Int, Int, Int), TestError>(initialDemand: .none)
        a.zip(b, c).subscribe(subscriber)
        a.send(1)
        b.send(2)
        c.send(3)
        b.fail(TestError(2))
        #expect(subscriber.log == ["sub", "failure(E2)"])
        #expect(a.subscription?.cancelCount == 1)
        #expect(c.subscription?.cancelCount == 1)
    }

    @Test func combineLatestRequestsDownstreamDemandFromEveryUpstream() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<(Int, Int), Never>(initialDemand: .max(3))
        a.combineLatest(b).subscribe(subscriber)
        #expect(a.subscription?.requests == [.max(3)])
        #expect(b.subscription?.requests == [.max(3)])
        subscriber.cancel()
    }

    @Test func combineLatestNeverDeliversBeyondDemand() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<(Int, Int), Never>(initialDemand: .max(1))
        a.combineLatest(b).subscribe(subscriber)
        a.send(1)
        b.send(10)
        a.send(2)
        #expect(subscriber.values.map { $0.0 } == [1])
        subscriber.request(.max(1))
        b.send(20)
        #expect(subscriber.values.map { $0.1 } == [10, 20])
        #expect(subscriber.values.last?.0 == 2)
        subscriber.cancel()
    }

    @Test func combineLatestOfThreeAndFourEmitsOnceAllHaveValues() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let d = PassthroughSubject<Int, Never>()
        let three = TrackingSubscriber<(Int, Int, Int), Never>()
        let four = TrackingSubscriber<Int, Never>()
        a.combineLatest(b, c).subscribe(three)
        a.combineLatest(b, c, d) { $0 + $1 + $2 + $3 }.subscribe(four)
        a.send(1)
        b.send(2)
        c.send(3)
        #expect(three.log == ["sub", "(1, 2, 3)"])
        d.send(4)
        c.send(30)
        #expect(three.values.map { $0.2 } == [3, 30])
        #expect(four.values == [10, 37])
        three.cancel()
        four.cancel()
    }

    @Test func combineLatestFinishesAtOnceWhenAnUpstreamFinishesEmpty() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<(Int, Int, Int), Never>()
        a.combineLatest(b, c).subscribe(subscriber)
        a.send(1)
        c.send(completion: .finished)
        #expect(subscriber.log == ["sub", "finished"])
    }

    @Test func switchToLatestAsksANewInnerPublisherForTheOutstandingDemand() {
        let outer = TestPublisher<TestPublisher<Int, Never>, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        outer.switchToLatest().subscribe(subscriber)
        #expect(outer.subscription?.requests == [.unlimited])
        let first = TestPublisher<Int, Never>()
        _ = outer.send(first)
        #expect(first.subscription?.requests == [.max(3)])
        _ = first.send(1)
        let second = TestPublisher<Int, Never>()
        _ = outer.send(second)
        #expect(first.subscription?.cancelCount == 1)
        #expect(second.subscription?.requests == [.max(2)])
        subscriber.cancel()
        for publisher in [first, second] { publisher.releaseSubscribers() }
        outer.releaseSubscribers()
    }

    @Test func switchToLatestPassesValuesSentBeforeTheInnerSubscription() throws {
        let outer = TestPublisher<ManualPublisher<Int, Never>, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(subscriber)
        let inner = ManualPublisher<Int, Never>()
        _ = outer.send(inner)
        #expect(try #require(inner.subscriber).receive(1) == .none)
        #expect(subscriber.log == ["sub", "1"])
        subscriber.cancel()
        outer.releaseSubscribers()
    }

    @Test func switchToLatestInnerFailureCancelsTheUpstream() {
        let outer = TestPublisher<TestPublisher<Int, TestError>, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        outer.switchToLatest().subscribe(subscriber)
        let inner = TestPublisher<Int, TestError>()
        _ = outer.send(inner)
        inner.fail(TestError(1))
        #expect(outer.subscription?.cancelCount == 1)
        #expect(subscriber.log == ["sub", "failure(E1)"])
    }
}
