import Streams
import Testing

@Suite struct SequenceOperatorTests {
    @Test func mapFilterAndCompactMapKeepASequencePublisher() {
        let mapped: Publishers.Sequence<LazyMapSequence<[Int], Int>, Never> = [1, 2, 3].publisher.map { $0 * 2 }
        let filtered: Publishers.Sequence<LazyFilterSequence<LazyMapSequence<[Int], Int>>, Never> = mapped.filter { $0 > 2 }
        let compact = filtered.compactMap { $0 == 4 ? nil : "v\($0)" }
        #expect(Array(mapped.sequence) == [2, 4, 6])
        #expect(Array(filtered.sequence) == [4, 6])
        #expect(Array(compact.sequence) == ["v6"])
    }

    @Test func mapFilterAndCompactMapRunTheirClosuresPerSubscription() {
        var calls = 0
        let mapped = [1, 2].publisher.map { calls += 1; return $0 }
        #expect(calls == 0)
        for _ in 0..<2 { _ = mapped.sink { _ in } }
        #expect(calls == 4)
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
