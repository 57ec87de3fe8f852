import Streams
import Testing

@Suite struct JustOperatorTests {
    @Test func mapOnAJustIsAJustEvaluatedAtOnce() {
        var calls = 0
        let mapped: Just<String> = Just(2).map {
            calls += 1; return "v\($0)"
        }
        #expect(calls == 1)
        #expect(mapped.output == "v2")
    }

    @Test func filterAndCompactMapGiveAnOptionalPublisher() {
        let kept: Optional<Int>.Publisher = Just(2).filter { $0 > 1 }
        let dropped: Optional<Int>.Publisher = Just(0).filter { $0 > 1 }
        let compact: Optional<String>.Publisher = Just(3).compactMap { $0 > 5 ? "big" : nil }
        #expect(kept.output == 2)
        #expect(dropped.output == nil)
        #expect(compact.output == nil)
    }

    @Test func aggregatesAreJusts() {
        #expect(Just(4).count().output == 1)
        #expect(Just(4).collect().output == [4])
        #expect(Just(4).contains(4).output)
        #expect(!Just(4).allSatisfy { $0 > 5 }.output)
        #expect(Just(4).min().output == 4)
        #expect(Just(4).first().output == 4)
    }

    @Test func tryMapCarriesTheThrownError() {
        let subscriber = TrackingSubscriber<Int, Error>()
        Just(1).tryMap { _ -> Int in throw TestError(4) }.subscribe(subscriber)
        #expect(subscriber.failures.map { $0 as? TestError } == [TestError(4)])
    }

    @Test func setFailureTypeAndReduceAreResultPublishers() {
        let typed: Result<Int, TestError>.Publisher = Just(1).setFailureType(to: TestError.self)
        let reduced: Result<Int, Never>.Publisher = Just(3).reduce(10, +)
        #expect(typed.result == .success(1))
        #expect(reduced.result == .success(13))
    }

    @Test func theSpecialisedPublishersStillPublish() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Just(5).map { $0 * 2 }.filter { $0 > 1 }.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "10", "finished"])
        let empty = TrackingSubscriber<Int, Never>()
        Just(5).dropFirst().subscribe(empty)
        #expect(empty.log == ["sub", "finished"])
    }

    @Test func justThrowingOperatorsGiveResultPublishers() throws {
        let throwing: (Int) throws -> Bool = { _ in throw TestError(5) }
        #expect(throws: TestError(5)) { try Just(1).tryContains(where: throwing).result.get() }
        #expect(throws: TestError(5)) { try Just(1).tryAllSatisfy(throwing).result.get() }
        #expect(try Just(4).tryScan(2, *).result.get() == 8)
        #expect(try Just(4).tryReduce(2, +).result.get() == 6)
        #expect(try Just(4).tryRemoveDuplicates { _, _ in true }.result.get() == 4)
    }
}
