import Streams
import Testing

@Suite struct FusionTests {
    @Test func mapAfterMapIsOneMap() {
        let subject = PassthroughSubject<Int, Never>()
        let fused: Publishers.Map<PassthroughSubject<Int, Never>, String> = subject.map { $0 + 1 }.map { "v\($0)" }
        let subscriber = TrackingSubscriber<String, Never>()
        fused.subscribe(subscriber)
        subject.send(1)
        #expect(subscriber.values == ["v2"])
    }

    @Test func filterAfterFilterIsOneFilterApplyingBothInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        var order: [String] = []
        let fused: Publishers.Filter<PassthroughSubject<Int, Never>> =
            subject
            .filter {
                order.append("a\($0)"); return $0 > 1
            }
            .filter {
                order.append("b\($0)"); return $0 < 4
            }
        let subscriber = TrackingSubscriber<Int, Never>()
        fused.subscribe(subscriber)
        for value in [1, 2, 5] { subject.send(value) }
        #expect(subscriber.values == [2])
        #expect(order == ["a1", "a2", "b2", "a5", "b5"])
    }

    @Test func filterAndTryFilterInEitherOrderAreOneTryFilterApplyingBothInOrder() throws {
        var calls: [String] = []
        let subject = PassthroughSubject<Int, Never>()
        let tryThenPlain: Publishers.TryFilter<PassthroughSubject<Int, Never>> =
            subject
            .tryFilter {
                calls.append("try \($0)"); return $0.isMultiple(of: 2)
            }
            .filter {
                calls.append("plain \($0)"); return $0.isMultiple(of: 3)
            }
        let plainThenTry: Publishers.TryFilter<PassthroughSubject<Int, Never>> =
            subject
            .filter { $0 > 0 }
            .tryFilter {
                if $0 == 5 { throw TestError(5) }; return true
            }
        let both: Publishers.TryFilter<PassthroughSubject<Int, Never>> =
            subject
            .tryFilter { _ in true }
            .tryFilter { $0 < 10 }
        #expect(try tryThenPlain.isIncluded(12))
        #expect(calls == ["try 12", "plain 12"])
        #expect(try !tryThenPlain.isIncluded(3))
        #expect(calls == ["try 12", "plain 12", "try 3"])
        #expect(throws: TestError(5)) { try plainThenTry.isIncluded(5) }
        #expect(try !plainThenTry.isIncluded(-1))
        #expect(try !both.isIncluded(11))
        let subscriber = TrackingSubscriber<Int, Error>()
        tryThenPlain.subscribe(subscriber)
        subject.send(6)
        subject.send(4)
        #expect(subscriber.values == [6])
        subscriber.cancel()
    }

    @Test func compactMapAfterCompactMapIsOneCompactMap() {
        let subject = PassthroughSubject<Int, Never>()
        let fused: Publishers.CompactMap<PassthroughSubject<Int, Never>, String> =
            subject
            .compactMap { $0 > 0 ? $0 : nil }
            .compactMap { $0 < 10 ? "v\($0)" : nil }
        let subscriber = TrackingSubscriber<String, Never>()
        fused.subscribe(subscriber)
        for value in [-1, 3, 12] { subject.send(value) }
        #expect(subscriber.values == ["v3"])
    }

    @Test func tryMapAfterMapOrTryMapIsOneTryMap() {
        let subject = PassthroughSubject<Int, Never>()
        let afterMap: Publishers.TryMap<PassthroughSubject<Int, Never>, Int> = subject.map { $0 * 2 }.tryMap { value in
            if value == 6 { throw TestError(6) }
            return value + 1
        }
        let afterTryMap: Publishers.TryMap<PassthroughSubject<Int, Never>, String> = afterMap.tryMap { "v\($0)" }
        let mapped: Publishers.TryMap<PassthroughSubject<Int, Never>, Int> = afterMap.map { $0 * 10 }
        let subscriber = TrackingSubscriber<String, Error>()
        let mappedSubscriber = TrackingSubscriber<Int, Error>()
        afterTryMap.subscribe(subscriber)
        mapped.subscribe(mappedSubscriber)
        subject.send(1)
        subject.send(3)
        #expect(subscriber.values == ["v3"])
        #expect(subscriber.failures.map { $0 as? TestError } == [TestError(6)])
        #expect(mappedSubscriber.values == [30])
    }

    @Test func mapAfterCompactMapAndCompactMapAfterTryCompactMapFuse() {
        let subject = PassthroughSubject<Int, Never>()
        let mapped: Publishers.CompactMap<PassthroughSubject<Int, Never>, String> =
            subject
            .compactMap { $0 > 0 ? $0 : nil }
            .map { "v\($0)" }
        let tried: Publishers.TryCompactMap<PassthroughSubject<Int, Never>, Int> =
            subject
            .tryCompactMap { $0 > 0 ? $0 : nil }
            .compactMap { $0.isMultiple(of: 2) ? $0 / 2 : nil }
        let mappedSubscriber = TrackingSubscriber<String, Never>()
        let triedSubscriber = TrackingSubscriber<Int, Error>()
        mapped.subscribe(mappedSubscriber)
        tried.subscribe(triedSubscriber)
        for value in [-1, 2, 3] { subject.send(value) }
        #expect(mappedSubscriber.values == ["v2", "v3"])
        #expect(triedSubscriber.values == [1])
        mappedSubscriber.cancel()
        triedSubscriber.cancel()
    }
}
