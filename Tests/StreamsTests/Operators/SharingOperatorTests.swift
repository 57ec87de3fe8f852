import Streams
import Testing

@Suite struct SharingOperatorTests {
    @Test func shareSubscribesUpstreamOnceForManySubscribers() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        defer { first.cancel(); second.cancel() }  // ends the streams the test leaves open
        upstream.send(1)
        #expect(upstream.subscribeCount == 1)
        #expect(first.values == [1])
        #expect(second.values == [1])
    }

    @Test func shareCancelsUpstreamWhenTheLastSubscriberCancels() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        first.cancel()
        #expect(upstream.subscription?.cancelCount == 0)
        second.cancel()
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func multicastWaitsForConnect() {
        let subject = PassthroughSubject<Int, Never>()
        let multicast = [1, 2].publisher.multicast(subject: subject)
        let subscriber = TrackingSubscriber<Int, Never>()
        multicast.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        let connection = multicast.connect()
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
        connection.cancel()
    }

    @Test func multicastRequestsTheDemandItsSubscriberReturnsFromTheSubject() {
        final class RecordingSubject: Subject, @unchecked Sendable {
            typealias Output = Int
            typealias Failure = Never
            let subscription = TestSubscription()
            var subscriber: AnySubscriber<Int, Never>?
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                self.subscriber = AnySubscriber(subscriber)
                subscriber.receive(subscription: subscription)
            }
            func send(_ value: Int) {}
            func send(completion: Subscribers.Completion<Never>) {}
            func send(subscription: Subscription) {}
        }
        let subject = RecordingSubject()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
        Empty<Int, Never>(completeImmediately: false).multicast(subject: subject).subscribe(subscriber)
        #expect(subject.subscriber?.receive(5) == Subscribers.Demand.none)
        #expect(subject.subscription.requests == [.max(1), .max(2)])
        #expect(subscriber.values == [5])
        subscriber.cancel()
        subject.subscriber = nil
    }

    @Test func multicastCreatesTheSubjectOnce() {
        var created = 0
        let multicast = Empty<Int, Never>(completeImmediately: false).multicast {
            () -> PassthroughSubject<Int, Never> in
            created += 1
            return PassthroughSubject()
        }
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        multicast.subscribe(first)
        multicast.subscribe(second)
        #expect(created == 1)
        first.cancel()
        second.cancel()
    }

    @Test func shareDoesNotConnectAgainAfterTheUpstreamCompleted() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        let first = TrackingSubscriber<Int, Never>()
        shared.subscribe(first)
        upstream.finish()
        let late = TrackingSubscriber<Int, Never>()
        shared.subscribe(late)
        late.cancel()
        #expect(late.log == ["sub", "finished"])
        #expect(upstream.subscribeCount == 1)
        #expect(upstream.subscription?.cancelCount == 0)
    }

    @Test func autoconnectsSubscriptionShowsTheUpstreamsSubscriptionByName() {
        let subscriber = TrackingSubscriber<Int, Never>()
        PassthroughSubject<Int, Never>().share().subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "Multicast")
        subscriber.cancel()
    }

    @Test func makeConnectableSubscribesTheUpstreamOnlyOnConnect() {
        let upstream = TestPublisher<Int, Never>()
        let connectable = upstream.makeConnectable()
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        connectable.subscribe(first)
        connectable.subscribe(second)
        #expect(upstream.subscribeCount == 0)
        let connection = connectable.connect()
        upstream.send(1)
        #expect(upstream.subscribeCount == 1)
        #expect(first.values == [1])
        #expect(second.values == [1])
        connection.cancel()
        #expect(upstream.subscription?.cancelCount == 1)
        first.cancel()
        second.cancel()
    }

    @Test func makeConnectableAutoconnectsOnTheFirstSubscriber() {
        let subscriber = TrackingSubscriber<Int, Never>()
        let cancellable = [1, 2].publisher.makeConnectable().autoconnect().sink { _ in }
        [3].publisher.makeConnectable().autoconnect().subscribe(subscriber)
        #expect(subscriber.log == ["sub", "3", "finished"])
        cancellable.cancel()
    }
}
