import Locking
import Foundation
import Streams
import Testing

/// Combine's ownership rule: a subscription holds its subscriber only while the stream is live.
/// Once it completes or is cancelled, every operator lets go of the subscriber downstream of it,
/// so a subscriber that keeps its subscription (as every subscriber does) forms no cycle that
/// outlives the stream.
@Suite struct LifetimeTests {
    /// An operator chain between a subject the test drives and a ``Probe``.
    struct Chain: CustomTestStringConvertible, Sendable {
        let name: String
        let attach: @Sendable (PassthroughSubject<Int, TestError>, Probe) -> Void
        var testDescription: String { name }

        static let all: [Chain] = [
            Chain(name: "subject") { $0.subscribe($1) },
            Chain(name: "map") { $0.map { $0 + 1 }.subscribe($1) },
            Chain(name: "tryMap") { $0.tryMap { $0 }.mapError { _ in TestError(9) }.subscribe($1) },
            Chain(name: "filter") { $0.filter { _ in true }.subscribe($1) },
            Chain(name: "compactMap") { $0.compactMap { $0 }.subscribe($1) },
            Chain(name: "mapError") { $0.mapError { $0 }.subscribe($1) },
            Chain(name: "removeDuplicates") { $0.removeDuplicates().subscribe($1) },
            Chain(name: "handleEvents") { $0.handleEvents(receiveOutput: { _ in }).subscribe($1) },
            Chain(name: "first") { $0.first().subscribe($1) },
            Chain(name: "collect") { $0.collect().map { $0.count }.subscribe($1) },
            Chain(name: "replaceError") { $0.replaceError(with: 0).setFailureType(to: TestError.self).subscribe($1) },
            Chain(name: "catch") { $0.catch { _ in Just(0).setFailureType(to: TestError.self) }.subscribe($1) },
            Chain(name: "tryCatch") { $0.tryCatch { _ in Just(0) }.mapError { _ in TestError(9) }.subscribe($1) },
            Chain(name: "append") { $0.append(7).subscribe($1) },
            Chain(name: "prepend") { $0.prepend(7).subscribe($1) },
            Chain(name: "merge") { $0.merge(with: Just(5).setFailureType(to: TestError.self)).subscribe($1) },
            Chain(name: "flatMap") { $0.flatMap { Just($0).setFailureType(to: TestError.self) }.subscribe($1) },
            Chain(name: "switchToLatest") {
                $0.map { Just($0).setFailureType(to: TestError.self) }.switchToLatest().subscribe($1)
            },
            Chain(name: "combineLatest") {
                $0.combineLatest(Just(1).setFailureType(to: TestError.self)).map { $0 + $1 }.subscribe($1)
            },
            Chain(name: "zip") { $0.zip($0.map { $0 }).map { $0 + $1 }.subscribe($1) },
            Chain(name: "share") { $0.share().subscribe($1) },
            Chain(name: "multicast") { upstream, probe in
                let multicast = upstream.multicast { PassthroughSubject<Int, TestError>() }
                multicast.subscribe(probe)
                probe.keep(multicast.connect())
            },
            Chain(name: "receive(on: immediate)") { $0.receive(on: ImmediateScheduler.shared).subscribe($1) },
            Chain(name: "subscribe(on: immediate)") { $0.subscribe(on: ImmediateScheduler.shared).subscribe($1) },
            Chain(name: "receive(on: queue)") { $0.receive(on: DispatchQueue(label: "LifetimeTests")).subscribe($1) },
            Chain(name: "eraseToAnyPublisher") { $0.eraseToAnyPublisher().subscribe($1) },
            Chain(name: "buffer") { $0.buffer(size: 4, prefetch: .keepFull, whenFull: .dropOldest).subscribe($1) },
            Chain(name: "delay(immediate)") { $0.delay(for: 1, scheduler: ImmediateScheduler.shared).subscribe($1) },
            Chain(name: "debounce(immediate)") {
                $0.debounce(for: 1, scheduler: ImmediateScheduler.shared).subscribe($1)
            },
            Chain(name: "throttle(immediate)") {
                $0.throttle(for: 1, scheduler: ImmediateScheduler.shared, latest: true).subscribe($1)
            },
            Chain(name: "timeout(immediate)") { $0.timeout(1, scheduler: ImmediateScheduler.shared).subscribe($1) },
            Chain(name: "measureInterval(immediate)") {
                $0.measureInterval(using: ImmediateScheduler.shared).map { $0.magnitude }.subscribe($1)
            },
            Chain(name: "collect(byTime immediate)") {
                $0.collect(.byTime(ImmediateScheduler.shared, 1)).map { $0.count }.subscribe($1)
            },
        ]
    }

    /// How the stream ends: from upstream (finish, failure) or from downstream (cancel).
    enum Ending: String, CaseIterable, Sendable {
        case finish, failure, cancel
    }

    @Test(arguments: Chain.all, Ending.allCases)
    func subscriberIsReleasedOnceTheStreamEnds(chain: Chain, ending: Ending) async {
        let subject = PassthroughSubject<Int, TestError>()
        #expect(
            await probeIsReleased { probe in
                chain.attach(subject, probe)
                subject.send(1)
                switch ending {
                case .finish: subject.send(completion: .finished)
                case .failure: subject.send(completion: .failure(TestError(1)))
                case .cancel: probe.cancel()
                }
            })
        withExtendedLifetime(subject) {}
    }

    @Test func subscriberOfASubjectThatIsGoneIsReleased() async {
        #expect(
            await probeIsReleased { probe in
                let subject = PassthroughSubject<Int, TestError>()
                subject.subscribe(probe)
                subject.send(1)
            })
    }

    @Test func subscriberOfACurrentValueSubjectThatIsGoneIsReleased() async {
        #expect(
            await probeIsReleased { probe in
                CurrentValueSubject<Int, TestError>(0).subscribe(probe)
            })
    }

    @Test func justThatFinishedReleasesItsSubscriber() async {
        #expect(
            await probeIsReleased { probe in
                Just(1).setFailureType(to: TestError.self).subscribe(probe)
            })
    }

    @Test func sequenceThatFinishedReleasesItsSubscriber() async {
        #expect(
            await probeIsReleased { probe in
                [1, 2, 3].publisher.setFailureType(to: TestError.self).subscribe(probe)
            })
    }

    @Test func futureThatResolvedReleasesItsSubscriber() async {
        let future = Future<Int, TestError> { promise in promise(.success(1)) }
        #expect(await probeIsReleased { probe in future.subscribe(probe) })
    }

    @Test func cancelledFutureReleasesItsSubscriber() async {
        let future = Future<Int, TestError> { _ in }
        #expect(
            await probeIsReleased { probe in
                future.subscribe(probe)
                probe.cancel()
            })
        withExtendedLifetime(future) {}
    }

    /// Runs `body` with a fresh probe that only `body` (and the streams it joins) may keep, then
    /// waits (bounded) for the probe to go: asynchronous schedulers release it on their queue.
    private func probeIsReleased(_ body: (Probe) -> Void) async -> Bool {
        weak var weakProbe: Probe?
        do {
            let probe = Probe()
            weakProbe = probe
            body(probe)
        }
        for _ in 0..<400 {
            if weakProbe == nil { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return weakProbe == nil
    }
}

/// A subscriber that keeps its subscription, as every real subscriber does, and asks for
/// everything.
final class Probe: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = TestError

    private let state = Locked<(subscription: Subscription?, kept: [Cancellable])>((nil, []))

    func receive(subscription: Subscription) {
        state.withLock { $0.subscription = subscription }
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<TestError>) {}

    func cancel() {
        state.withLock { $0.subscription }?.cancel()
    }

    /// Keeps something alive as long as the probe (a connection, for instance).
    func keep(_ cancellable: Cancellable) {
        state.withLock { $0.kept.append(cancellable) }
    }
}
