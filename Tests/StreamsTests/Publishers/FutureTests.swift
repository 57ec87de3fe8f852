import Dispatch
import Streams
import Testing

@Suite struct FutureTests {
    @Test func aFuturesSubscriptionShowsTheFutureTheDownstreamAndTheDemandInItsMirror() throws {
        let pending = TrackingSubscriber<Int, Never>(initialDemand: .none)
        Future<Int, Never> { _ in }.subscribe(pending)
        let live = Mirror(reflecting: try #require(pending.subscription)).children.map {
            "\($0.label ?? ""): \($0.value)"
        }
        #expect(live.count == 4)
        #expect(live[0].hasPrefix("parent: Optional(Streams.Future"))
        #expect(live[1].contains("TrackingSubscriber"))
        #expect(live[2] == "hasAnyDemand: false")
        let ended = TrackingSubscriber<Int, TestError>()
        Future<Int, TestError> { $0(.failure(TestError(1))) }.subscribe(ended)
        let after = Mirror(reflecting: try #require(ended.subscription)).children.map {
            "\($0.label ?? ""): \($0.value)"
        }
        #expect(after == ["parent: nil", "downstream: nil", "hasAnyDemand: true", "subject: nil"])
        let parent = Mirror(reflecting: try #require(pending.subscription)).children.first?.value
        #expect(parent is Future<Int, Never>?)
        pending.cancel()
    }

    final class Counter: @unchecked Sendable { var count = 0 }

    @Test func promiseClosureRunsOnceEagerly() {
        let counter = Counter()
        let future = Future<Int, Never> { promise in
            counter.count += 1
            promise(.success(1))
        }
        #expect(counter.count == 1)
        future.subscribe(TrackingSubscriber<Int, Never>())
        future.subscribe(TrackingSubscriber<Int, Never>())
        #expect(counter.count == 1)
    }

    @Test func resultIsReplayedToLateSubscribers() {
        let future = Future<Int, Never> { $0(.success(5)) }
        let late = TrackingSubscriber<Int, Never>()
        future.subscribe(late)
        #expect(late.log == ["sub", "5", "finished"])
    }

    @Test func valueWaitsForDemand() {
        let future = Future<Int, Never> { $0(.success(5)) }
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        future.subscribe(subscriber)
        #expect(subscriber.log == ["sub"])
        subscriber.request(.max(1))
        #expect(subscriber.log == ["sub", "5", "finished"])
    }

    @Test func failureIsSentWithoutDemand() {
        let future = Future<Int, TestError> { $0(.failure(TestError(1))) }
        let subscriber = TrackingSubscriber<Int, TestError>(initialDemand: .none)
        future.subscribe(subscriber)
        #expect(subscriber.log == ["sub", "failure(E1)"])
    }

    @Test func laterPromiseCallsAreIgnored() {
        final class PromiseBox: @unchecked Sendable { var promise: Future<Int, Never>.Promise? }
        let box = PromiseBox()
        let future = Future<Int, Never> { box.promise = $0 }
        let subscriber = TrackingSubscriber<Int, Never>()
        future.subscribe(subscriber)
        #expect(subscriber.log == ["sub"])
        box.promise?(.success(1))
        box.promise?(.success(2))
        #expect(subscriber.log == ["sub", "1", "finished"])
    }

    @Test func cancelledSubscriberReceivesNothing() {
        final class PromiseBox: @unchecked Sendable { var promise: Future<Int, Never>.Promise? }
        let box = PromiseBox()
        let future = Future<Int, Never> { box.promise = $0 }
        let subscriber = TrackingSubscriber<Int, Never>()
        future.subscribe(subscriber)
        subscriber.cancel()
        box.promise?(.success(1))
        #expect(subscriber.log == ["sub"])
    }

    @Test func asyncOperationFulfilsTheFuture() async throws {
        let future = Future<Int, Error> { () async throws -> Int in 42 }
        var received: [Int] = []
        for try await value in future.values {
            received.append(value)
        }
        #expect(received == [42])
    }
}

@Suite struct FutureValueTests {
    @Test func valueAwaitsTheFulfilledValue() async {
        let future = Future<Int, Never> { promise in
            Task { promise(.success(42)) }
        }
        #expect(await future.value == 42)
    }

    @Test func throwingValueThrowsTheFailure() async {
        let future = Future<Int, TestError> { promise in promise(.failure(TestError(8))) }
        await #expect(throws: TestError(8)) { try await future.value }
    }

    @Test func throwingValueStopsWaitingWhenTheTaskIsCancelled() async {
        let future = Future<Int, TestError> { _ in }
        let task = Task { try await future.value }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
    }
}
