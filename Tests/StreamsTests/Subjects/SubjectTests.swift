import Streams
import Testing

@Suite struct SubjectTests {
    @Test func passthroughBroadcastsToAllSubscribers() {
        let subject = PassthroughSubject<Int, Never>()
        let first = TrackingSubscriber<Int, Never>()
        let second = TrackingSubscriber<Int, Never>()
        subject.subscribe(first)
        subject.subscribe(second)
        subject.send(1)
        #expect(first.values == [1])
        #expect(second.values == [1])
    }

    @Test func passthroughDropsValuesWithoutDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subscriber.request(.max(1))
        subject.send(3)
        #expect(subscriber.values == [1, 3])
    }

    @Test func passthroughSendsCompletionToLateSubscribers() {
        let subject = PassthroughSubject<Int, TestError>()
        subject.send(completion: .failure(TestError(2)))
        let late = TrackingSubscriber<Int, TestError>()
        subject.subscribe(late)
        #expect(late.log == ["sub", "failure(E2)"])
    }

    @Test func cancelledSubscriberIsRemoved() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subscriber.cancel()
        subject.send(1)
        #expect(subscriber.log == ["sub"])
    }

    @Test func aCurrentValueSubjectsValueCanStillBeSetAfterItsCompletion() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(completion: .finished)
        subject.value = 42
        subject.send(7)
        #expect(subject.value == 42)
        #expect(subscriber.log == ["sub", "0", "finished"])
    }

    @Test func currentValueSubjectSendsCurrentValueOnFirstDemand() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
    }

    /// As Combine's: the current value is delivered inside a request made from the
    /// subscriber's `receive(subscription:)`, not after that call returns.
    @Test func aCurrentValueSubjectDeliversItsValueInsideARequestMadeFromReceiveSubscription() {
        final class Requester: Subscriber, @unchecked Sendable {
            var log: [String] = []
            func receive(subscription: Subscription) {
                subscription.request(.unlimited)
                log.append("sub")
            }
            func receive(_ input: Int) -> Subscribers.Demand {
                log.append("\(input)")
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) { log.append("end") }
        }
        let subject = CurrentValueSubject<Int, Never>(7)
        let requester = Requester()
        subject.subscribe(requester)
        #expect(requester.log == ["7", "sub"])
        subject.send(8)
        #expect(requester.log == ["7", "sub", "8"])
    }

    @Test func currentValueSubjectRespectsPerSubscriberDemand() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let limited = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
        let unlimited = TrackingSubscriber<Int, Never>()
        subject.subscribe(limited)
        subject.subscribe(unlimited)
        subject.send(1)
        subject.send(2)
        #expect(limited.values == [0])
        #expect(unlimited.values == [0, 1, 2])
        limited.request(.max(1))
        #expect(limited.values == [0, 2])
    }

    @Test func currentValueSubjectValueSetterSends() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.value = 5
        #expect(subject.value == 5)
        #expect(subscriber.values == [0, 5])
    }

    @Test func currentValueSubjectIgnoresSendsAfterCompletion() {
        let subject = CurrentValueSubject<Int, Never>(0)
        subject.send(completion: .finished)
        subject.send(3)
        #expect(subject.value == 0)
    }

    @Test func subjectCanSubscribeToAPublisher() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let cancellable = [1, 2].publisher.subscribe(subject)
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
        cancellable.cancel()
    }

    @Test func voidSubjectSendsWithoutArgument() {
        let subject = PassthroughSubject<Void, Never>()
        let subscriber = TrackingSubscriber<Void, Never>()
        subject.subscribe(subscriber)
        subject.send()
        #expect(subscriber.values.count == 1)
    }

    @Test func aCompletionBeforeTheUpstreamsSubscriptionDoesNotReachTheSubject() {
        let upstream = ManualPublisher<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let connection = upstream.subscribe(subject)
        upstream.subscriber?.receive(completion: .finished)
        #expect(subscriber.log == ["sub"])
        connection.cancel()
        subscriber.cancel()
    }

    @Test func subjectDoesNotRequestFromItsUpstreamBeforeAnySubscriberDemands() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = TestPublisher<Int, Never>()
        let connection = upstream.subscribe(subject)
        #expect(upstream.subscription?.requests == [])
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(subscriber)
        #expect(upstream.subscription?.requests == [])
        subscriber.request(.max(1))
        #expect(upstream.subscription?.requests == [.unlimited])
        connection.cancel()
    }

    @Test func subjectRequestsFromALateUpstreamOnceASubscriberHasDemanded() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let upstream = TestPublisher<Int, Never>()
        let connection = upstream.subscribe(subject)
        #expect(upstream.subscription?.requests == [.unlimited])
        connection.cancel()
    }

    @Test func currentValueSubjectDeliversInSubscriptionOrder() {
        final class Log: @unchecked Sendable { var order: [Int] = [] }
        let log = Log()
        let subject = CurrentValueSubject<Int, Never>(0)
        var bag: [AnyCancellable] = []
        for index in 0..<10 { subject.sink { _ in log.order.append(index) }.store(in: &bag) }
        #expect(log.order == Array(0..<10))
        log.order = []
        subject.send(1)
        #expect(log.order == Array(0..<10))
    }

    @Test func anySubscriberOfASubjectCancelsRepeatedSubscriptionsAndIgnoresRepeatedCompletions() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let erased = AnySubscriber(subject)
        let first = TestSubscription()
        let second = TestSubscription()
        erased.receive(subscription: first)
        erased.receive(subscription: second)
        #expect(first.requests == [.unlimited])
        #expect(second.isCancelled)
        erased.receive(completion: .finished)
        _ = erased.receive(1)
        erased.receive(completion: .finished)
        #expect(subscriber.log == ["sub", "finished"])
    }

    @Test func aCompletedSubjectRefusesAnUpstreamByCancellingItOnce() {
        let subject = PassthroughSubject<Int, Never>()
        subject.send(completion: .finished)
        let upstream = TestPublisher<Int, Never>()
        let connection = upstream.subscribe(subject)
        connection.cancel()
        #expect(upstream.subscription?.cancelCount == 1)
    }

    @Test func currentValueSubjectAsksAnUpstreamForEverythingAtOnce() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let upstream = TestSubscription()
        subject.send(subscription: upstream)
        #expect(upstream.requests == [.unlimited])
    }

    @Test func aSubjectThatIsGoneCancelsItsUpstreams() {
        let upstream = TestSubscription()
        let passthroughUpstream = TestSubscription()
        do {
            let subject = CurrentValueSubject<Int, Never>(0)
            subject.send(subscription: upstream)
            let passthrough = PassthroughSubject<Int, Never>()
            passthrough.send(subscription: passthroughUpstream)
        }
        #expect(upstream.cancelCount == 1)
        #expect(passthroughUpstream.cancelCount == 1)
    }

    @Test func aSubjectOfOurOwnIsGivenASubscriptionNamedSubjectThatReachesTheUpstream() {
        final class RecordingSubject: Subject, @unchecked Sendable {
            typealias Output = Int
            typealias Failure = Never
            var subscriptions: [Subscription] = []
            func send(_ value: Int) {}
            func send(completion: Subscribers.Completion<Never>) {}
            func send(subscription: Subscription) { subscriptions.append(subscription) }
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {}
        }
        let upstream = TestPublisher<Int, Never>()
        let subject = RecordingSubject()
        let cancellable = upstream.subscribe(subject)
        #expect(subject.subscriptions.map { "\($0)" } == ["Subject"])
        subject.subscriptions.first?.request(.max(2))
        #expect(upstream.subscription?.requests == [.max(2)])
        cancellable.cancel()
        #expect(upstream.subscription?.cancelCount == 1)
    }
}
