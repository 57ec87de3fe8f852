import Streams
import Testing

/// Combine's subscriber contract, checked across several publishers and operators.
@Suite struct ContractTests {
    @Test func mapPassesDemandThroughToTheUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.map { $0 * 10 }.subscribe(subscriber)
        #expect(upstream.subscription?.requests == [.max(2)])
        #expect(upstream.send(1) == .max(1))
    }

    @Test func valuesNeverExceedDemandThroughAnOperatorChain() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        (1...100).publisher.map { $0 * 2 }.filter { $0 % 4 == 0 }.subscribe(subscriber)
        #expect(subscriber.values == [4, 8, 12])
        subscriber.cancel()  // the stream is still live: end it
    }

    @Test func completionArrivesExactlyOnce() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        subject.map { $0 }.subscribe(subscriber)
        subject.send(completion: .finished)
        subject.send(completion: .failure(TestError()))
        subject.send(completion: .finished)
        #expect(subscriber.completions.count == 1)
    }

    @Test func nothingArrivesAfterCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .finished)
        subject.send(2)
        #expect(subscriber.log == ["sub", "1", "finished"])
    }

    @Test func cancelPropagatesUpstreamThroughOperators() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream
            .map { $0 + 1 }
            .filter { _ in true }
            .compactMap { $0 }
            .handleEvents()
            .replaceError(with: 0)
            .subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func cancelIsIdempotent() {
        let upstream = TestPublisher<Int, Never>()
        let sink = upstream.handleEvents().sink { _ in }
        sink.cancel()
        sink.cancel()
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func reentrantCancelInsideReceiveDoesNotDeadlock() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, Never>() { tracker, _ in tracker.cancel() }
        subject
            .append(Empty())
            .catch { _ in Empty<Int, Never>() }
            .merge(with: Empty())
            .subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        #expect(subscriber.log == ["sub", "1"])
    }

    @Test func reentrantRequestInsideReceiveIsHonoured() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1)) { tracker, _ in
            tracker.request(.max(1))
        }
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func sinkCancelStopsDelivery() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = subject.sink { received.append($0) }
        subject.send(1)
        cancellable.cancel()
        subject.send(2)
        #expect(received == [1])
    }

    @Test func sinkRequestsUnlimitedDemand() {
        let upstream = TestPublisher<Int, Never>()
        let cancellable = upstream.sink { _ in }
        #expect(upstream.subscription?.requests == [.unlimited])
        cancellable.cancel()
    }

    @Test func sinkReleasesCancellableOnDeinitAndCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        do {
            _ = upstream.sink { _ in }
        }
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func sinkDeliversCompletion() {
        var completions = 0
        let cancellable = Just(1).sink(receiveCompletion: { _ in completions += 1 }, receiveValue: { _ in })
        #expect(completions == 1)
        cancellable.cancel()
    }

    @Test func sinkCancelsASecondSubscription() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let first = TestSubscription()
        let second = TestSubscription()
        sink.receive(subscription: first)
        sink.receive(subscription: second)
        #expect(second.cancelCount == 1)
        #expect(first.cancelCount == 0)
    }

    final class Witness {
        let onDeinit: () -> Void
        init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    @Test func sinkReleasesItsClosuresWhenCancelled() {
        var released = false
        let subject = PassthroughSubject<Int, Never>()
        var witness: Witness? = Witness { released = true }
        let cancellable = subject.sink { [witness] _ in _ = witness }
        witness = nil
        #expect(!released)
        cancellable.cancel()
        #expect(released)
    }

    @Test func sinkReleasesItsClosuresWhenCancelledFromInsideTheClosure() {
        var released = false
        let subject = PassthroughSubject<Int, Never>()
        var witness: Witness? = Witness { released = true }
        var cancellable: AnyCancellable?
        cancellable = subject.sink { [witness] _ in
            _ = witness
            cancellable?.cancel()
        }
        witness = nil
        subject.send(1)
        #expect(released)
        _ = cancellable
    }

    @Test func sinkReleasesItsClosuresOnCompletion() {
        var released = false
        let subject = PassthroughSubject<Int, Never>()
        var witness: Witness? = Witness { released = true }
        let cancellable = subject.sink { [witness] _ in _ = witness }
        witness = nil
        subject.send(completion: .finished)
        #expect(released)
        _ = cancellable
    }

    @Test func assignWritesEachValueToTheKeyPath() {
        final class Model: @unchecked Sendable { var value = 0 }
        let model = Model()
        let cancellable = [1, 2, 3].publisher.assign(to: \.value, on: model)
        #expect(model.value == 3)
        cancellable.cancel()
    }

    @Test func assignIgnoresAValueBeforeItsSubscription() {
        final class Model: @unchecked Sendable { var value = 0 }
        let model = Model()
        let assign = Subscribers.Assign(object: model, keyPath: \.value)
        _ = assign.receive(12)
        #expect(model.value == 0)
        let upstream = TestPublisher<Int, Never>()
        upstream.subscribe(assign)
        upstream.send(42)
        #expect(model.value == 42)
        assign.cancel()
    }

    /// Combine's "zero demand" contract violation: the publishers and operators whose Combine
    /// counterpart does not check it ignore `request(.none)` in every build (those that check it
    /// trap in debug builds: see ``ContractTrapTests``).
    @Test(arguments: ZeroDemandCase.all)
    func requestingNoDemandIsIgnored(subject: ZeroDemandCase) {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        subject.attach(subscriber)
        subscriber.request(.none)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        subscriber.cancel()  // the stream is still open: end it, so nothing outlives the test
    }

    struct ZeroDemandCase: CustomTestStringConvertible, Sendable {
        let name: String
        let attach: @Sendable (TrackingSubscriber<Int, Never>) -> Void
        var testDescription: String { name }

        static let all: [ZeroDemandCase] = [
            ZeroDemandCase(name: "sequence") { [1, 2].publisher.subscribe($0) },
            ZeroDemandCase(name: "map") { [0, 1].publisher.map { $0 + 1 }.subscribe($0) },
            ZeroDemandCase(name: "buffer") {
                [1, 2].publisher.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe($0)
            },
            ZeroDemandCase(name: "append") { Just(1).append(2).subscribe($0) },
        ]
    }
}
