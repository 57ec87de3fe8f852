import Locking
import Streams
import Testing

@Suite struct AsyncBridgeTests {
    @Test func valuesIteratesAllElementsOfANonFailingPublisher() async {
        var received: [Int] = []
        for await value in [1, 2, 3].publisher.values {
            received.append(value)
        }
        #expect(received == [1, 2, 3])
    }

    @Test func throwingValuesThrowsThePublisherFailure() async {
        var received: [Int] = []
        await #expect(throws: TestError(5)) {
            for try await value in Just(1).setFailureType(to: TestError.self).append(Fail(error: TestError(5))).values {
                received.append(value)
            }
        }
        #expect(received == [1])
    }

    @Test func valuesRequestsOneValuePerIteration() async {
        let upstream = TestPublisher<Int, Never>()
        var iterator = upstream.values.makeAsyncIterator()
        #expect(upstream.subscription?.requests == [])
        upstream.onSubscribe = nil
        async let next = iterator.next()
        // Wait until the iterator has asked for a value, then provide it.
        while upstream.subscription?.requests.isEmpty ?? true { await Task.yield() }
        #expect(upstream.subscription?.requests == [.max(1)])
        upstream.send(9)
        #expect(await next == 9)
    }

    @Test func cancellingTheTaskCancelsTheSubscription() async {
        let subject = PassthroughSubject<Int, Never>()
        let handle = Task {
            var count = 0
            for await _ in subject.values { count += 1 }
            return count
        }
        handle.cancel()
        #expect(await handle.value == 0)
    }

    @Test func taskPublisherDeliversTheOperationResult() async throws {
        var received: [Int] = []
        for try await value in Publishers.TaskPublisher(operation: { () async throws -> Int in 7 }).values {
            received.append(value)
        }
        #expect(received == [7])
    }

    @Test func taskPublisherFailsWithTheThrownError() async {
        let publisher = Publishers.TaskPublisher(operation: { () async throws -> Int in throw TestError(3) })
        await #expect(throws: TestError(3)) {
            for try await _ in publisher.values {}
        }
    }

    @Test func taskPublisherDoesNotStartWithoutDemand() async throws {
        final class Flag: @unchecked Sendable { var started = false }
        let flag = Flag()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        Publishers.TaskPublisher { () async -> Int in
            flag.started = true
            return 1
        }.subscribe(subscriber)
        try await Task.sleep(for: .milliseconds(20))
        #expect(!flag.started)
        subscriber.cancel()
    }

    @Test func concurrentNextCallsOnOneIteratorAllEndWhenTheirTasksAreCancelled() async {
        let subject = PassthroughSubject<Int, Never>()
        let iterator = UncheckedBox(subject.values.makeAsyncIterator())
        let tasks = (0..<4).map { _ in
            Task {
                var copy = iterator.value
                return await copy.next()
            }
        }
        for task in tasks { task.cancel() }
        for task in tasks {
            let value = await task.value
            #expect(value == nil)
        }
    }

    @Test func concurrentNextCallsAreServedInOrderOfArrival() async {
        let upstream = TestPublisher<Int, Never>()
        let iterator = UncheckedBox(upstream.values.makeAsyncIterator())
        let first = Task {
            var copy = iterator.value
            return await copy.next()
        }
        while (upstream.subscription?.requests.count ?? 0) < 1 { await Task.yield() }
        let second = Task {
            var copy = iterator.value
            return await copy.next()
        }
        while (upstream.subscription?.requests.count ?? 0) < 2 { await Task.yield() }
        upstream.send(1)
        upstream.send(2)
        #expect(await first.value == 1)
        #expect(await second.value == 2)
    }

    @Test func aValueAfterTheCompletionIsIgnored() async {
        let upstream = TestPublisher<Int, Never>()
        var iterator = upstream.values.makeAsyncIterator()
        upstream.finish()
        upstream.send(1)
        #expect(await iterator.next() == nil)
        upstream.releaseSubscribers()
    }

    @Test func aValueBeforeTheSubscriptionReleasesEveryWaiterWithNil() async {
        let upstream = ManualPublisher<Int, Never>()
        let values = upstream.values
        let waiter = Task {
            var iterator = values.makeAsyncIterator()
            return await iterator.next()
        }
        // Until the waiter has called next(), a value finds no one to release: keep sending.
        let finished = Locked(false)
        let watcher = Task {
            _ = await waiter.value
            finished.withLock { $0 = true }
        }
        while !finished.withLock({ $0 }) {
            if let subscriber = upstream.subscriber {
                #expect(subscriber.receive(42) == .none)
            }
            await Task.yield()
        }
        await watcher.value
        #expect(await waiter.value == nil)
        // The waiter's request still goes to the subscription when it arrives.
        let subscription = TestSubscription()
        upstream.subscriber?.receive(subscription: subscription)
        #expect(subscription.requests == [.max(1)])
        subscription.cancel()
    }
}
