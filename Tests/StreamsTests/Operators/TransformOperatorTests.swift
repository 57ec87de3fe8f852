import Streams
import Testing

@Suite struct TransformOperatorTests {
    @Test func mapTransformsValuesAndPassesCompletion() {
        let subscriber = TrackingSubscriber<String, Never>()
        [1, 2].publisher.map { "v\($0)" }.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "v1", "v2", "finished"])
    }

    @Test func tryMapFailsAndCancelsUpstreamWhenTheClosureThrows() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>()
        upstream.tryMap { value -> Int in
            if value == 2 { throw TestError(2) }
            return value
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.values == [1])
        #expect(subscriber.failures.map { $0 as? TestError } == [TestError(2)])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func mapErrorConvertsTheFailure() {
        let subscriber = TrackingSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError(1)).mapError { TestError($0.code + 10) }.subscribe(subscriber)
        #expect(subscriber.failures == [TestError(11)])
    }

    @Test func compactMapDropsNilsAndReplacesTheirDemand() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        [1, 2, 3, 4, 5].publisher.compactMap { $0 % 2 == 0 ? $0 : nil }.subscribe(subscriber)
        #expect(subscriber.values == [2, 4])
        subscriber.cancel()  // the stream is still live: end it
    }

    @Test func filterKeepsMatchingValuesAndReplacesDemandForDropped() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.filter { $0 > 1 }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(subscriber.values == [2])
    }

    @Test func replaceNilSubstitutesTheValue() {
        let subscriber = TrackingSubscriber<Int, Never>()
        [1, nil, 3].publisher.replaceNil(with: 0).subscribe(subscriber)
        #expect(subscriber.values == [1, 0, 3])
    }

    @Test func setFailureTypeKeepsValues() {
        let subscriber = TrackingSubscriber<Int, TestError>()
        Just(1).setFailureType(to: TestError.self).subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "finished"])
    }

    @Test func removeDuplicatesDropsConsecutiveRepeats() {
        let subscriber = TrackingSubscriber<Int, Never>()
        [1, 1, 2, 2, 1, 3, 3].publisher.removeDuplicates().subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 1, 3])
    }

    @Test func removeDuplicatesByPredicate() {
        let subscriber = TrackingSubscriber<Int, Never>()
        [1, 3, 4, 6, 7].publisher.removeDuplicates { $0 % 2 == $1 % 2 }.subscribe(subscriber)
        #expect(subscriber.values == [1, 4, 7])
    }

    @Test func handleEventsReportsEveryEvent() {
        final class Log: @unchecked Sendable { var entries: [String] = [] }
        let log = Log()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(5))
        [1].publisher.handleEvents(
            receiveSubscription: { _ in log.entries.append("subscription") },
            receiveOutput: { log.entries.append("output \($0)") },
            receiveCompletion: { _ in log.entries.append("completion") },
            receiveCancel: { log.entries.append("cancel") },
            receiveRequest: { log.entries.append("request \($0)") }
        ).subscribe(subscriber)
        #expect(log.entries == ["subscription", "request max(5)", "output 1", "completion"])
    }

    @Test func handleEventsReportsCancelOnce() {
        final class Log: @unchecked Sendable { var cancels = 0 }
        let log = Log()
        let subscriber = TrackingSubscriber<Int, Never>()
        PassthroughSubject<Int, Never>().handleEvents(receiveCancel: { log.cancels += 1 }).subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        #expect(log.cancels == 1)
    }

    @Test func firstDeliversTheFirstValueAndCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.first().subscribe(subscriber)
        upstream.send(4)
        upstream.send(5)
        #expect(subscriber.log == ["sub", "4", "finished"])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func firstWaitsForDemand() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        [1, 2].publisher.first().subscribe(subscriber)
        #expect(subscriber.log == ["sub"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "1", "finished"])
    }

    @Test func firstOfEmptyJustFinishes() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Empty<Int, Never>().first().subscribe(subscriber)
        #expect(subscriber.log == ["sub", "finished"])
    }

    @Test func firstWhereSkipsNonMatchingValues() {
        let subscriber = TrackingSubscriber<Int, Never>()
        [1, 2, 3, 4].publisher.first { $0 > 2 }.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "3", "finished"])
    }

    @Test func collectEmitsAllValuesAsOneArray() {
        let subscriber = TrackingSubscriber<[Int], Never>()
        [1, 2, 3].publisher.collect().subscribe(subscriber)
        #expect(subscriber.values == [[1, 2, 3]])
        #expect(subscriber.isFinished)
    }

    @Test func collectOfEmptyEmitsEmptyArray() {
        let subscriber = TrackingSubscriber<[Int], Never>()
        Empty<Int, Never>().collect().subscribe(subscriber)
        #expect(subscriber.values == [[]])
    }

    @Test func collectForwardsFailureAndDropsBuffer() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<[Int], TestError>()
        upstream.collect().subscribe(subscriber)
        upstream.send(1)
        upstream.fail(TestError(4))
        #expect(subscriber.log == ["sub", "failure(E4)"])
    }

    @Test func replaceErrorSendsTheReplacementThenFinishes() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.replaceError(with: -1).subscribe(subscriber)
        upstream.send(1)
        upstream.fail(TestError())
        #expect(subscriber.log == ["sub", "1", "-1", "finished"])
    }

    @Test func replaceErrorWaitsForDemandBeforeSendingTheReplacement() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.replaceError(with: -1).subscribe(subscriber)
        upstream.send(1)
        upstream.fail(TestError())
        #expect(subscriber.log == ["sub", "1"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "1", "-1", "finished"])
    }

    @Test func tryMapCancelsASubscriptionThatArrivesAfterItsStreamEnded() {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>()
        upstream.tryMap { _ -> Int in throw TestError(1) }.subscribe(subscriber)
        let first = TestSubscription()
        upstream.subscriber?.receive(subscription: first)
        _ = upstream.subscriber?.receive(1)
        let late = TestSubscription()
        upstream.subscriber?.receive(subscription: late)
        #expect(first.cancelCount == 1)
        #expect(late.cancelCount == 1)
    }

    @Test func tryMapLeavesASubscriptionAloneThatArrivesAfterACancelBeforeAnySubscription() throws {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>()
        upstream.tryMap { $0 }.subscribe(subscriber)
        try #require(upstream.operatorSubscription).cancel()
        let late = TestSubscription()
        upstream.subscriber?.receive(subscription: late)
        #expect(late.cancelCount == 0)
        #expect(late.requests == [])
    }

    @Test func tryMapDeliversNothingAfterCancel() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>()
        upstream.tryMap { $0 }.subscribe(subscriber)
        subscriber.cancel()
        upstream.send(1)
        upstream.finish()
        #expect(subscriber.log == ["sub"])
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func tryMapDeliversNothingAfterTheUpstreamCompleted() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>()
        upstream.tryMap { $0 }.subscribe(subscriber)
        upstream.finish()
        upstream.send(1)
        upstream.finish()
        #expect(subscriber.log == ["sub", "finished"])
    }

    @Test func removeDuplicatesForwardsOneCompletionOnly() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.removeDuplicates().subscribe(subscriber)
        upstream.finish()
        upstream.send(1)
        upstream.finish()
        #expect(subscriber.log == ["sub", "finished"])
    }

    @Test func mapKeyPathReadsOneTwoOrThreeProperties() {
        struct Point { let x: Int, y: Int, z: Int }
        let points = [Point(x: 1, y: 2, z: 3)].publisher
        let one = TrackingSubscriber<Int, Never>()
        let two = TrackingSubscriber<(Int, Int), Never>()
        let three = TrackingSubscriber<(Int, Int, Int), Never>()
        points.map(\.x).subscribe(one)
        points.map(\.x, \.y).subscribe(two)
        points.map(\.x, \.y, \.z).subscribe(three)
        #expect(one.log == ["sub", "1", "finished"])
        #expect(two.log == ["sub", "(1, 2)", "finished"])
        #expect(three.log == ["sub", "(1, 2, 3)", "finished"])
    }

    @Test func collectByCountEmitsFullArraysThenTheRemainder() {
        let subscriber = TrackingSubscriber<[Int], Never>()
        [1, 2, 3, 4, 5].publisher.collect(2).subscribe(subscriber)
        #expect(subscriber.values == [[1, 2], [3, 4], [5]])
        #expect(subscriber.isFinished)
    }

    @Test func collectByCountAsksTheUpstreamForCountTimesTheDemand() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<[Int], Never>(initialDemand: .max(2))
        upstream.collect(3).subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.max(6)])
        subscriber.cancel()
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func collectByCountDropsThePartialBufferOnFailure() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<[Int], TestError>()
        upstream.collect(2).subscribe(subscriber)
        upstream.send(1)
        upstream.fail(TestError(3))
        #expect(subscriber.log == ["sub", "failure(E3)"])
    }

    @Test func assertNoFailurePassesValuesAndFinishedThrough() {
        let subscriber = TrackingSubscriber<Int, Never>()
        [1, 2].publisher.setFailureType(to: TestError.self).assertNoFailure().subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
    }

    @Test func replaceEmptyAsksTheUpstreamForUnlimitedAndPassesRequestsOn() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(3))
        upstream.replaceEmpty(with: 0).subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.max(2), .unlimited])
        #expect(upstream.send(1) == .max(3))
        subscriber.request(.max(4))
        #expect(upstream.subscription?.requests == [.max(2), .unlimited, .max(4)])
        subscriber.cancel()
        upstream.releaseSubscribers()
    }

    @Test func replaceEmptyHoldsTheElementUntilTheFirstRequestWhenNoneWasMade() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.replaceEmpty(with: 7).subscribe(subscriber)
        upstream.finish()
        #expect(subscriber.log == ["sub"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "7", "finished"])
    }

    @Test func replaceEmptyIgnoresEventsAfterACancel() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.replaceEmpty(with: 7).subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        upstream.finish()
        #expect(subscriber.log == ["sub"])
        #expect(upstream.subscription?.cancelCount == 1)
    }
}
