import Locking
import Dispatch
import Streams
import Synchronization
import Testing

/// Many threads sending, requesting and cancelling at once. Bounded in count (each test does a
/// few thousand operations) and run under `swift test --sanitize=thread` to catch data races.
@Suite struct ConcurrencyStressTests {
    /// Checks the contract from the subscriber's side: calls never overlap, nothing after the
    /// completion, at most one completion, never more values than demanded.
    final class ContractChecker<Input>: Subscriber, @unchecked Sendable {
        typealias Failure = Never
        let inside = Atomic<Int>(0)
        let violations = Atomic<Int>(0)
        let values = Atomic<Int>(0)
        let completions = Atomic<Int>(0)
        let demanded: Int?
        let granted = Atomic<Int>(0)
        let cancelAfter: Int?
        private let subscriptionBox = Locked<UncheckedBox<Subscription?>>(UncheckedBox(nil))

        init(demand: Int? = nil, cancelAfter: Int? = nil) {
            self.demanded = demand
            self.cancelAfter = cancelAfter
            granted.store(demand ?? .max, ordering: .relaxed)
        }

        /// Requests more values (counted before asking, so a fast delivery is never miscounted).
        func request(_ count: Int) {
            granted.add(count, ordering: .acquiringAndReleasing)
            subscription?.request(.max(count))
        }

        var subscription: Subscription? { subscriptionBox.withLock { $0 }.value }

        func receive(subscription: Subscription) {
            subscriptionBox.withLock { $0 = UncheckedBox(subscription) }
            subscription.request(demanded.map { .max($0) } ?? .unlimited)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            enter()
            defer { leave() }
            if completions.load(ordering: .acquiring) > 0 { violations.add(1, ordering: .relaxed) }
            let count = values.add(1, ordering: .relaxed).newValue
            if demanded != nil, count > granted.load(ordering: .acquiring) { violations.add(1, ordering: .relaxed) }
            if let cancelAfter, count == cancelAfter { subscription?.cancel() }
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {
            enter()
            defer { leave() }
            if completions.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
                violations.add(1, ordering: .relaxed)
            }
        }

        private func enter() {
            if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 { violations.add(1, ordering: .relaxed) }
        }

        private func leave() {
            inside.subtract(1, ordering: .acquiringAndReleasing)
        }
    }

    @Test func subjectWithConcurrentSendersAndCancellersKeepsTheContract() {
        let subject = PassthroughSubject<Int, Never>()
        let checkers = (0..<16).map { index in
            ContractChecker<Int>(demand: index % 2 == 0 ? nil : 50, cancelAfter: index % 3 == 0 ? 20 : nil)
        }
        for (index, checker) in checkers.enumerated() {
            switch index % 4 {
            case 0: subject.map { $0 + 1 }.subscribe(checker)
            case 1: subject.filter { $0 % 2 == 0 }.append(Just(0)).subscribe(checker)
            case 2: subject.merge(with: Empty()).subscribe(checker)
            default: subject.setFailureType(to: TestError.self).catch { _ in Just(0) }.subscribe(checker)
            }
        }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<400 {
                subject.send(value)
                if thread == 7 && value % 100 == 50 {
                    checkers[value / 100].subscription?.cancel()
                }
            }
        }
        subject.send(completion: .finished)
        for checker in checkers {
            #expect(checker.violations.load(ordering: .acquiring) == 0)
            #expect(checker.completions.load(ordering: .acquiring) <= 1)
        }
        // Unlimited, never-cancelled subscribers of the plain map chain saw every value.
        #expect(checkers[8].values.load(ordering: .acquiring) == 8 * 400)
        #expect(checkers[4].values.load(ordering: .acquiring) == 8 * 400)
        // The appended Just of a checker whose demand ran out is still waiting: end it.
        for checker in checkers { checker.subscription?.cancel() }
    }

    @Test func nothingArrivesAfterCancelOnceSendersHaveStopped() {
        for _ in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let checker = ContractChecker<Int>()
            subject.map { $0 }.subscribe(checker)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for value in 0..<200 {
                    subject.send(value)
                    if thread == 0 && value == 100 { checker.subscription?.cancel() }
                }
            }
            let afterCancel = checker.values.load(ordering: .acquiring)
            subject.send(1)
            #expect(checker.values.load(ordering: .acquiring) == afterCancel)
            #expect(checker.violations.load(ordering: .acquiring) == 0)
        }
    }

    @Test func sequenceWithConcurrentRequestsDeliversEachValueOnceInOrder() {
        final class OrderChecker: Subscriber, @unchecked Sendable {
            typealias Input = Int
            typealias Failure = Never
            let state = Locked<(last: Int, count: Int, outOfOrder: Int)>((-1, 0, 0))
            let box = Locked<UncheckedBox<Subscription?>>(UncheckedBox(nil))
            func receive(subscription: Subscription) { box.withLock { $0 = UncheckedBox(subscription) } }
            func receive(_ input: Int) -> Subscribers.Demand {
                state.withLock { state in
                    if input != state.last + 1 { state.outOfOrder += 1 }
                    state.last = input
                    state.count += 1
                }
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let checker = OrderChecker()
        (0..<10_000).publisher.subscribe(checker)
        let subscription = checker.box.withLock { $0 }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<500 { subscription.value?.request(.max(1)) }
        }
        let (last, count, outOfOrder) = checker.state.withLock { $0 }
        #expect(count == 2_000)
        #expect(last == 1_999)
        #expect(outOfOrder == 0)
        subscription.value?.cancel()  // 8 000 values are still undemanded: end the stream
    }

    @Test func mergeOfConcurrentSubjectsNeverOverlapsDownstreamCalls() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let checker = ContractChecker<Int>()
        Publishers.MergeMany(subjects).subscribe(checker)
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for value in 0..<500 { subjects[index].send(value) }
            subjects[index].send(completion: .finished)
        }
        #expect(checker.violations.load(ordering: .acquiring) == 0)
        #expect(checker.values.load(ordering: .acquiring) == 2_000)
        #expect(checker.completions.load(ordering: .acquiring) == 1)
    }

    @Test func futureFulfilledWhileSubscribersArriveDeliversExactlyOnceToEach() {
        for _ in 0..<20 {
            final class PromiseBox: @unchecked Sendable { var promise: Future<Int, Never>.Promise? }
            let box = PromiseBox()
            let future = Future<Int, Never> { box.promise = $0 }
            let promise = box.promise
            let checkers = (0..<8).map { _ in ContractChecker<Int>() }
            DispatchQueue.concurrentPerform(iterations: 9) { index in
                if index == 8 {
                    promise?(.success(1))
                } else {
                    future.subscribe(checkers[index])
                }
            }
            for checker in checkers {
                #expect(checker.values.load(ordering: .acquiring) == 1)
                #expect(checker.completions.load(ordering: .acquiring) == 1)
                #expect(checker.violations.load(ordering: .acquiring) == 0)
            }
        }
    }

    @Test func sinkCancelRacingWithDeliveryIsSafe() {
        for _ in 0..<50 {
            let subject = PassthroughSubject<Int, Never>()
            let received = Atomic<Int>(0)
            let cancellable = subject.sink { _ in received.add(1, ordering: .relaxed) }
            DispatchQueue.concurrentPerform(iterations: 3) { thread in
                if thread == 0 {
                    cancellable.cancel()
                } else {
                    for value in 0..<100 { subject.send(value) }
                }
            }
            let settled = received.load(ordering: .acquiring)
            subject.send(0)
            #expect(received.load(ordering: .acquiring) == settled)
        }
    }

    @Test func flatMapWithChildrenOnDifferentQueuesKeepsTheContract() async {
        let queues = (0..<4).map { DispatchQueue(label: "child-\($0)") }
        let checker = ContractChecker<Int>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            final class Box: @unchecked Sendable { var continuation: CheckedContinuation<Void, Never>? }
            let box = Box()
            box.continuation = continuation
            (0..<4).publisher
                .flatMap { index in
                    (0..<250).publisher.receive(on: queues[index])
                }
                .handleEvents(receiveCompletion: { _ in box.continuation?.resume() })
                .subscribe(checker)
        }
        // handleEvents sees the completion just before it is passed on to the checker, on
        // another thread: wait (bounded) for the checker to record it.
        for _ in 0..<2_000 where checker.completions.load(ordering: .acquiring) == 0 {
            try? await Task.sleep(for: .milliseconds(5))
        }
        #expect(checker.violations.load(ordering: .acquiring) == 0)
        #expect(checker.values.load(ordering: .acquiring) == 1_000)
        #expect(checker.completions.load(ordering: .acquiring) == 1)
    }

    @Test func flatMapUnderLimitedDemandWithConcurrentChildrenAndRequestsKeepsTheContract() {
        let children = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let checker = ContractChecker<Int>(demand: 50)
        children.publisher.flatMap { $0 }.subscribe(checker)
        DispatchQueue.concurrentPerform(iterations: 5) { index in
            if index == 4 {
                for _ in 0..<50 { checker.request(10) }
            } else {
                for value in 0..<500 { children[index].send(value) }
                children[index].send(completion: .finished)
            }
        }
        #expect(checker.violations.load(ordering: .acquiring) == 0)
        #expect(checker.values.load(ordering: .acquiring) <= 550)
        #expect(checker.completions.load(ordering: .acquiring) <= 1)
        checker.subscription?.cancel()
    }

    @Test func combineLatestAndZipWithConcurrentSendersKeepTheContract() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let latest = ContractChecker<(Int, Int)>()
        let zipped = ContractChecker<(Int, Int)>()
        a.combineLatest(b).subscribe(latest)
        a.zip(b).subscribe(zipped)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let subject = index == 0 ? a : b
            for value in 0..<500 { subject.send(value) }
            subject.send(completion: .finished)
        }
        #expect(latest.violations.load(ordering: .acquiring) == 0)
        #expect(zipped.violations.load(ordering: .acquiring) == 0)
        #expect(zipped.values.load(ordering: .acquiring) == 500)
        #expect(latest.completions.load(ordering: .acquiring) == 1)
        #expect(zipped.completions.load(ordering: .acquiring) == 1)
    }

    @Test func currentValueSubjectWithConcurrentSendersAndRequestsKeepsTheContract() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let checkers = (0..<4).map { _ in ContractChecker<Int>(demand: 100) }
        for checker in checkers { subject.subscribe(checker) }
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for value in 0..<300 {
                subject.send(value)
                if value % 50 == 0 { checkers[index].request(1) }
            }
        }
        for checker in checkers {
            #expect(checker.violations.load(ordering: .acquiring) == 0)
            #expect(checker.values.load(ordering: .acquiring) <= 106)
        }
    }

    @Test func asyncValuesFedFromAnotherThreadReceivesEverythingInOrder() async {
        let queue = DispatchQueue(label: "producer")
        var received: [Int] = []
        for await value in (0..<200).publisher.subscribe(on: queue).values {
            received.append(value)
        }
        #expect(received == Array(0..<200))
    }
}
