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
}
