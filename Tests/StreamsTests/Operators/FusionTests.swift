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
        let fused: Publishers.Filter<PassthroughSubject<Int, Never>> = subject
            .filter { order.append("a\($0)"); return $0 > 1 }
            .filter { order.append("b\($0)"); return $0 < 4 }
        let subscriber = TrackingSubscriber<Int, Never>()
        fused.subscribe(subscriber)
        for value in [1, 2, 5] { subject.send(value) }
        #expect(subscriber.values == [2])
        #expect(order == ["a1", "a2", "b2", "a5", "b5"])
    }

    @Test func compactMapAfterCompactMapIsOneCompactMap() {
        let subject = PassthroughSubject<Int, Never>()
        let fused: Publishers.CompactMap<PassthroughSubject<Int, Never>, String> = subject
            .compactMap { $0 > 0 ? $0 : nil }
            .compactMap { $0 < 10 ? "v\($0)" : nil }
        let subscriber = TrackingSubscriber<String, Never>()
        fused.subscribe(subscriber)
        for value in [-1, 3, 12] { subject.send(value) }
        #expect(subscriber.values == ["v3"])
    }
}
