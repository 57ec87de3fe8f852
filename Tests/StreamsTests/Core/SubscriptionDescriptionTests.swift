import Streams
import Testing

/// Each operator's subscription (and the subscriber it puts in front of its upstream) shows as
/// Combine shows its own: the description is Combine's name, a playground shows the same name,
/// and the mirror has Combine's children. `print()` and debuggers read these.
@Suite struct SubscriptionDescriptionTests {
    /// What the upstream sees as its subscriber when `make` is subscribed to.
    private func upstreamSideOf<P: Publisher>(_ make: (CapturingPublisher) -> P) -> Any? {
        let upstream = CapturingPublisher()
        let subscriber = TrackingSubscriber<P.Output, P.Failure>(initialDemand: .none)
        make(upstream).subscribe(subscriber)
        // Ends the stream, so the subscriber and its subscription do not keep each other.
        defer { subscriber.cancel() }
        return upstream.subscriber
    }

    /// The subscription the downstream receives when `make` is subscribed to.
    private func subscriptionOf<P: Publisher>(_ make: (TestPublisher<Int, TestError>) -> P) -> Subscription? {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<P.Output, P.Failure>(initialDemand: .none)
        make(upstream).subscribe(subscriber)
        // The test publisher keeps its subscribers: let go of them too, or an operator that
        // keeps its upstream (retry, buffer) stays in a cycle with it.
        defer {
            subscriber.cancel()
            upstream.releaseSubscribers()
        }
        return subscriber.subscription
    }

    // Optional is itself reflectable: look at what it wraps.
    private func name(_ value: Any?) -> String? {
        guard let value else { return nil }
        return (value as? CustomStringConvertible)?.description
    }

    private func childLabels(_ value: Any?) -> [String?]? {
        guard let value else { return nil }
        return (value as? CustomReflectable)?.customMirror.children.map(\.label)
    }

    @Test func operatorsNameTheirSubscriptionsAsCombineDoes() {
        #expect(name(subscriptionOf { $0.tryMap { $0 } }) == "TryMap")
        #expect(name(subscriptionOf { $0.tryFilter { _ in true } }) == "TryFilter")
        #expect(name(subscriptionOf { $0.removeDuplicates() }) == "RemoveDuplicates")
        #expect(name(subscriptionOf { $0.dropFirst(2) }) == "Drop")
        #expect(name(subscriptionOf { $0.catch { _ in Just(0) } }) == "Catch")
        #expect(name(subscriptionOf { $0.retry(1) }) == "Retry")
        #expect(name(subscriptionOf { $0.collect() }) == "Collect")
        #expect(name(subscriptionOf { $0.print(to: NullStream()) }) == "Print")
        #expect(name(subscriptionOf { $0.encode(encoder: PassingCoder()) }) == "Encode")
        #expect(name(subscriptionOf { $0.map { $0 }.decode(type: Int.self, decoder: PassingCoder()) }) == "Decode")
    }

    @Test func firstWhereKeepsCombinesNameTryFirst() {
        #expect(name(subscriptionOf { $0.first(where: { $0 > 0 }) }) == "TryFirst")
        #expect(name(subscriptionOf { $0.tryFirst(where: { $0 > 0 }) }) == "TryFirstWhere")
    }

    @Test func passingOperatorsNameTheSubscriberTheyPutUpstream() {
        #expect(name(upstreamSideOf { $0.map { $0 } }) == "Map")
        #expect(name(upstreamSideOf { $0.filter { _ in true } }) == "Filter")
        #expect(name(upstreamSideOf { $0.mapError { $0 } }) == "MapError")
        #expect(name(upstreamSideOf { $0.map(\.self) }) == "ValueForKey")
        #expect(name(upstreamSideOf { $0.breakpoint() }) == "Breakpoint")
    }

    @Test func delayShowsNoDescriptionOfItsOwnAsInCombine() throws {
        let side = try #require(upstreamSideOf { $0.delay(for: 1, scheduler: ImmediateScheduler.shared) })
        #expect(!(side is CustomStringConvertible))
        #expect(!(side is CustomReflectable))
    }

    @Test func publishersNameTheirSubscriptionsAsCombineDoes() {
        func subscription<P: Publisher>(_ publisher: P) -> Subscription? {
            let subscriber = TrackingSubscriber<P.Output, P.Failure>(initialDemand: .none)
            publisher.subscribe(subscriber)
            defer { subscriber.cancel() }
            return subscriber.subscription
        }
        #expect(name(subscription(Just(1))) == "Just")
        #expect(name(subscription(Optional(1).publisher)) == "Optional")
        #expect(name(subscription(Result<Int, TestError>.success(1).publisher)) == "Once")
        #expect(name(subscription(Empty<Int, Never>())) == "Empty")
        #expect(name(subscription(Fail<Int, TestError>(error: TestError(1)))) == "Empty")
    }

    @Test func aSequenceSubscriptionIsNamedAfterItsSequenceUntilTheStreamEnds() {
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        (1...5).publisher.subscribe(subscriber)
        #expect(name(subscriber.subscription) == "1...5")
        #expect(childLabels(subscriber.subscription) == ["sequence"])
        subscriber.cancel()
        #expect(name(subscriber.subscription) == "Sequence")

        let finished = TrackingSubscriber<Int, Never>()
        [1, 2].publisher.subscribe(finished)
        #expect(name(finished.subscription) == "Sequence")
    }

    @Test func subjectsBuiltIntoPublishersNameTheirSubscriptionsAfterThePublisher() {
        final class Model: ObservableObject {
            @Published var count = 0
        }
        let model = Model()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        model.$count.subscribe(subscriber)
        #expect(name(subscriber.subscription) == "PublishedSubject")
        subscriber.cancel()

        let multicast = PassthroughSubject<Int, Never>().multicast { PassthroughSubject() }
        let multicastSubscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        multicast.subscribe(multicastSubscriber)
        #expect(name(multicastSubscriber.subscription) == "Multicast")
        multicastSubscriber.cancel()
    }

    @Test func mirrorsHaveCombinesChildren() throws {
        let reduceLike = ["downstream", "result", "initial", "status"]
        #expect(childLabels(subscriptionOf { $0.count() }) == reduceLike)
        #expect(childLabels(subscriptionOf { $0.reduce(0, +) }) == reduceLike)
        #expect(childLabels(subscriptionOf { $0.collect() }) == ["count"])
        #expect(
            childLabels(subscriptionOf { $0.collect(53) }) == ["downstream", "upstreamSubscription", "buffer", "count"])
        #expect(
            childLabels(subscriptionOf { $0.debounce(for: 1, scheduler: ImmediateScheduler.shared) })
                == ["downstream", "downstreamDemand", "currentValue"])
        #expect(childLabels(subscriptionOf { $0.tryFilter { _ in true } }) == ["downstream"])
        #expect(childLabels(subscriptionOf { $0.removeDuplicates() }) == ["downstream", "last"])
        #expect(childLabels(subscriptionOf { $0.catch { _ in Just(0) } }) == ["downstream", "demand"])
        #expect(childLabels(subscriptionOf { $0.dropFirst() }) == [])
        #expect(
            childLabels(subscriptionOf { $0.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest) })
                == ["values", "state", "downstreamDemand", "terminal"])
        #expect(childLabels(Optional<Subscription>.none) == nil)
        let just = TrackingSubscriber<Int, Never>(initialDemand: .none)
        Just(42).subscribe(just)
        let justSubscription = try #require(just.subscription)
        #expect((justSubscription as? CustomReflectable)?.customMirror.children.map { "\($0.value)" } == ["42"])
        just.cancel()
    }

    @Test func subjectConduitsMirrorTheSubjectTheDownstreamAndTheDemand() throws {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
        subject.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        let conduit = try #require(subscription as? CustomReflectable)
        let children = conduit.customMirror.children.map { ($0.label, "\($0.value)") }
        #expect(children.map(\.0) == ["parent", "downstream", "demand", "subject"])
        #expect(children[0].1 == "PassthroughSubject")
        #expect(children[2].1 == "max(3)")
        subscriber.cancel()

        let observed = ObservableObjectPublisher()
        let observer = TrackingSubscriber<Void, Never>(initialDemand: .none)
        observed.subscribe(observer)
        #expect(childLabels(observer.subscription) == ["downstream"])
        observer.cancel()
    }

    @Test func aFlatMapChildsSubscriberShowsTheUpstreamsSubscriberAsItsParent() throws {
        let outer = ManualPublisher<Int, TestError>()
        let child = ManualPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>()
        outer.flatMap { _ in child }.subscribe(subscriber)
        let outerSide = try #require(outer.rawSubscriber as? CustomCombineIdentifierConvertible)
        try #require(outer.subscriber).receive(subscription: TestSubscription())
        _ = try #require(outer.subscriber).receive(1)
        let childSide = try #require(child.rawSubscriber)
        #expect(name(childSide) == "FlatMap")
        #expect(childLabels(upstreamSideOf { $0.flatMap { Just($0).setFailureType(to: TestError.self) } }) == [])
        let children = (childSide as? CustomReflectable)?.customMirror.children.map { ($0.label, "\($0.value)") }
        #expect(children?.first?.0 == "parentSubscription")
        #expect(children?.first?.1 == "\(outerSide.combineIdentifier)")
        subscriber.cancel()
    }

    @Test func playgroundsShowTheName() throws {
        let subscription = try #require(subscriptionOf { $0.tryMap { $0 } })
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "TryMap")
    }

    @Test func anySubscriberShowsTheSubscriberItWraps() {
        let tracking = TrackingSubscriber<Int, Never>()
        let erased = AnySubscriber(tracking)
        #expect(erased.description == String(describing: tracking))
        #expect(AnySubscriber<Int, Never>().description == "Anonymous AnySubscriber")
        let side = upstreamSideOf { $0.mapError { $0 } }
        #expect(name(side) == "MapError")
    }
}

/// Keeps the subscriber it is given, as it is (never erased), and gives it no subscription.
private final class CapturingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = TestError

    var subscriber: Any?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        self.subscriber = subscriber
    }
}

private struct NullStream: TextOutputStream {
    mutating func write(_ string: String) {}
}

/// Encodes an `Int` as itself and decodes it back.
private struct PassingCoder: TopLevelEncoder, TopLevelDecoder {
    func encode<T: Encodable>(_ value: T) throws -> Int { value as? Int ?? 0 }
    func decode<T: Decodable>(_ type: T.Type, from input: Int) throws -> T {
        guard let value = input as? T else { throw TestError(0) }
        return value
    }
}
