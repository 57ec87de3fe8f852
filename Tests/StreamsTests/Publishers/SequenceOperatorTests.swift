import Streams
import Testing

@Suite struct SequenceOperatorTests {
    @Test func mapFilterAndCompactMapGiveArrayBackedSequencePublishers() {
        let mapped: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.map { $0 * 2 }
        let filtered: Publishers.Sequence<[Int], Never> = mapped.filter { $0 > 2 }
        let compact: Publishers.Sequence<[String], Never> = filtered.compactMap { $0 == 4 ? nil : "v\($0)" }
        #expect(mapped.sequence == [2, 4, 6])
        #expect(filtered.sequence == [4, 6])
        #expect(compact.sequence == ["v6"])
    }

    @Test func mapFilterAndCompactMapRunTheirClosuresWhenApplied() {
        var calls = 0
        let mapped = [1, 2].publisher.map {
            calls += 1; return $0
        }
        #expect(calls == 2)
        for _ in 0..<2 { _ = mapped.sink { _ in } }
        #expect(calls == 2)
    }

    @Test func replaceNilAndThrowingAggregatesAreEvaluatedAtOnce() throws {
        #expect([1, nil, 3].publisher.replaceNil(with: 0).sequence == [1, 0, 3])
        #expect(try [1, 2].publisher.tryReduce(0, +).result.get() == 3)
        #expect(try ![1, 2].publisher.tryAllSatisfy { $0 > 1 }.result.get())
        #expect(throws: TestError(1)) {
            try [1, 2].publisher.tryContains { _ in throw TestError(1) }.result.get()
        }
    }

    @Test func countOfARandomAccessCollectionIsAJust() {
        let counted: Just<Int> = (0..<Int.max).publisher.count()
        #expect(counted.output == Int.max)
        let typed: Result<Int, TestError>.Publisher = [1, 2].publisher.setFailureType(to: TestError.self).count()
        #expect(typed.result == .success(2))
    }

    @Test func outputAtAndInIndexTheCollection() {
        #expect([5, 6, 7].publisher.output(at: 1) == Optional.Publisher(6))
        #expect([5, 6, 7].publisher.output(at: 3) == Optional.Publisher(nil))
        #expect([5, 6, 7].publisher.output(in: 1..<3).sequence == [6, 7])
    }

    @Test func appendAndPrependOfElementsBuildOneCollection() {
        let appended: Publishers.Sequence<[Int], Never> = [1, 2].publisher.append(3, 4)
        let prepended: Publishers.Sequence<[Int], Never> = [3, 4].publisher.prepend([1, 2])
        #expect(appended.sequence == [1, 2, 3, 4])
        #expect(prepended.sequence == [1, 2, 3, 4])
        #expect([1].publisher.append([2].publisher).sequence == [1, 2])
        #expect([2].publisher.prepend([1].publisher).sequence == [1, 2])
    }

    @Test func firstAndLastAreOptionalPublishers() {
        let first: Optional<Int>.Publisher = [3, 4].publisher.first()
        let none: Optional<Int>.Publisher = [Int]().publisher.first()
        let last: Optional<Int>.Publisher = [3, 4].publisher.last()
        #expect(first.output == 3)
        #expect(none.output == nil)
        #expect(last.output == 4)
    }

    @Test func aggregatesAreResultPublishers() {
        #expect([1, 2, 3].publisher.count().result == .success(3))
        #expect([1, 2, 3].publisher.reduce(0, +).result == .success(6))
        #expect([1, 2, 3].publisher.contains(2).result == .success(true))
        #expect([1, 2, 3].publisher.allSatisfy { $0 > 1 }.result == .success(false))
        #expect([1, 2].publisher.collect().result == .success([1, 2]))
    }

    @Test func dropAndPrefixStaySequences() {
        #expect(Array([1, 2, 3].publisher.dropFirst().sequence) == [2, 3])
        #expect(Array([1, 2, 3].publisher.prefix(2).sequence) == [1, 2])
        #expect([1, 2, 3, 1].publisher.prefix { $0 < 3 }.sequence == [1, 2])
        #expect([1, 1, 2, 2, 1].publisher.removeDuplicates().sequence == [1, 2, 1])
        #expect([1, 2, 3].publisher.scan(0, +).sequence == [1, 3, 6])
    }

    @Test func theSpecialisedPublishersHonourDemand() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2, 3].publisher.map { $0 * 10 }.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "10"])
        subscriber.request(.max(5))
        #expect(subscriber.log == ["sub", "10", "20", "30", "finished"])
    }
}
