import Streams
import Testing

/// What the operators with a subscription of their own do when their upstream breaks the
/// contract (events before its subscription, two subscriptions) or the downstream cancels
/// before the upstream has subscribed. Each does what Combine's counterpart does: some pass
/// early values or an early completion on, the others let them reach no one; a subscription
/// that arrives after a cancel is left alone.
@Suite struct ContractViolationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        var forwardsValues = false
        var forwardsCompletion = false
        var cancelsLateSubscription = false
        let make: @Sendable (ManualPublisher<Int, Never>) -> AnyPublisher<Int, Error>
        var testDescription: String { name }

        static let all: [Case] = [
            Case(name: "tryMap", forwardsValues: true) { $0.tryMap { $0 }.eraseToAnyPublisher() },
            Case(name: "handleEvents", forwardsValues: true, forwardsCompletion: true) {
                $0.handleEvents().setFailureType(to: Error.self).eraseToAnyPublisher()
            },
            Case(name: "drop(while:)") { $0.drop { _ in false }.setFailureType(to: Error.self).eraseToAnyPublisher() },
            Case(name: "encode", forwardsValues: true, forwardsCompletion: true) {
                $0.encode(encoder: IntCoder()).eraseToAnyPublisher()
            },
            Case(name: "measureInterval") {
                $0.measureInterval(using: ImmediateScheduler.shared).map { _ in 0 }.setFailureType(to: Error.self)
                    .eraseToAnyPublisher()
            },
            Case(name: "receive(on:)") {
                $0.receive(on: ImmediateScheduler.shared).setFailureType(to: Error.self).eraseToAnyPublisher()
            },
            Case(name: "replaceError") {
                $0.replaceError(with: 0).setFailureType(to: Error.self).eraseToAnyPublisher()
            },
            Case(name: "output(in:)", forwardsValues: true) {
                $0.output(in: 0..<10).setFailureType(to: Error.self).eraseToAnyPublisher()
            },
            Case(name: "append", cancelsLateSubscription: true) {
                $0.append(Empty()).setFailureType(to: Error.self).eraseToAnyPublisher()
            },
        ]
    }

    @Test(arguments: Case.all)
    func aSubscriptionArrivingAfterACancelIsLeftAloneOrCancelledAsCombinesIs(subject: Case) throws {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>()
        subject.make(upstream).subscribe(subscriber)
        try #require(upstream.operatorSubscription).cancel()
        let late = TestSubscription()
        upstream.subscriber?.receive(subscription: late)
        #expect(late.requests.isEmpty)
        #expect(late.cancelCount == (subject.cancelsLateSubscription ? 1 : 0))
        #expect(subscriber.log.isEmpty)
    }

    @Test(arguments: Case.all)
    func valuesBeforeTheSubscriptionGoOnOnlyWhereCombinesDo(subject: Case) {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>(demandPerValue: .max(3))
        subject.make(upstream).subscribe(subscriber)
        let demand = upstream.subscriber?.receive(1)
        #expect(subscriber.log.count == (subject.forwardsValues ? 1 : 0))
        #expect(demand == (subject.forwardsValues ? .max(3) : Subscribers.Demand.none))
        // The stream is still waiting for its subscription and works once it arrives.
        upstream.subscriber?.receive(subscription: TestSubscription())
        _ = upstream.subscriber?.receive(2)
        #expect(subscriber.log.count == (subject.forwardsValues ? 3 : 2))
        subscriber.cancel()
    }

    @Test(arguments: Case.all)
    func aCompletionBeforeTheSubscriptionGoesOnOnlyWhereCombinesDoes(subject: Case) {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>()
        subject.make(upstream).subscribe(subscriber)
        upstream.subscriber?.receive(completion: .finished)
        #expect(subscriber.log == (subject.forwardsCompletion ? ["finished"] : []))
        if !subject.forwardsCompletion { subscriber.cancel() }
    }

    @Test func decodeFailsOnAValueItCannotDecodeEvenBeforeTheSubscription() {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<String, Error>()
        upstream.decode(type: String.self, decoder: FailingDecoder()).subscribe(subscriber)
        #expect(upstream.subscriber?.receive(0) == Subscribers.Demand.none)
        #expect(subscriber.log == ["failure(E9)"])
    }

    @Test(arguments: Case.all)
    func aSecondSubscriptionIsCancelled(subject: Case) {
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Error>()
        subject.make(upstream).subscribe(subscriber)
        upstream.subscriber?.receive(subscription: TestSubscription())
        let second = TestSubscription()
        upstream.subscriber?.receive(subscription: second)
        #expect(second.cancelCount == 1)
        #expect(subscriber.subscriptionCount == 1)
        subscriber.cancel()
    }
}

#if DEBUG
    /// Where Combine's debug builds trap on a contract violation, so do Streams' (release builds
    /// carry on, the event ignored).
    @Suite struct ContractTrapTests {
        @Test func aValueBeforeTheSubscriptionTrapsWhereCombinesDoes() async {
            await #expect(processExitsWith: .failure) {
                let upstream = ManualPublisher<Int, Never>()
                upstream.tryFilter { _ in true }.subscribe(TrackingSubscriber<Int, Error>())
                _ = upstream.subscriber?.receive(1)
            }
        }

        @Test func aValueBeforeDropUntilOutputsSubscriptionTrapsEvenAfterTheTriggerEndedTheStream() async {
            await #expect(processExitsWith: .failure) {
                let upstream = ManualPublisher<Int, Never>()
                upstream.drop(untilOutputFrom: Empty<Int, Never>()).subscribe(TrackingSubscriber<Int, Never>())
                _ = upstream.subscriber?.receive(1)
            }
        }

        @Test func aValueNoCallOfNextAskedForTrapsInValues() async {
            await #expect(processExitsWith: .failure) {
                let upstream = ManualPublisher<Int, Never>()
                let iterator = upstream.values.makeAsyncIterator()
                upstream.subscriber?.receive(subscription: TestSubscription())
                _ = upstream.subscriber?.receive(1)
                withExtendedLifetime(iterator) {}
            }
        }

        @Test func aCompletionBeforeTheSubscriptionTrapsWhereCombinesDoes() async {
            await #expect(processExitsWith: .failure) {
                let upstream = ManualPublisher<Int, Never>()
                upstream.removeDuplicates().subscribe(TrackingSubscriber<Int, Never>())
                upstream.subscriber?.receive(completion: .finished)
            }
        }

        @Test func aValueBeforeCatchsSubscriptionTraps() async {
            await #expect(processExitsWith: .failure) {
                let upstream = ManualPublisher<Int, TestError>()
                upstream.catch { _ in Just(0) }.subscribe(TrackingSubscriber<Int, Never>())
                _ = upstream.subscriber?.receive(1)
            }
        }

        @Test func aRequestBeforeTheSubscriptionTrapsWhereCombinesDoes() async {
            await #expect(processExitsWith: .failure) {
                let upstream = ManualPublisher<Int, Never>()
                upstream.tryFilter { _ in true }.subscribe(TrackingSubscriber<Int, Error>(initialDemand: .none))
                upstream.operatorSubscription?.request(.max(1))
            }
        }

        @Test func aValueBeyondTheDemandTrapsInCatch() async {
            await #expect(processExitsWith: .failure) {
                let upstream = TestPublisher<Int, TestError>()
                upstream.catch { _ in Just(0) }.subscribe(TrackingSubscriber<Int, Never>(initialDemand: .max(1)))
                upstream.send(1)
                upstream.send(2)
            }
        }

        @Test func anUpstreamFailingTwiceTrapsInCatch() async {
            await #expect(processExitsWith: .failure) {
                let upstream = ManualPublisher<Int, TestError>()
                upstream.catch { _ in Empty<Int, Never>(completeImmediately: false) }.subscribe(
                    TrackingSubscriber<Int, Never>())
                upstream.subscriber?.receive(subscription: TestSubscription())
                upstream.subscriber?.receive(completion: .failure(TestError(1)))
                upstream.subscriber?.receive(completion: .failure(TestError(2)))
            }
        }

        @Test func askingJustForNoValuesTraps() async {
            await #expect(processExitsWith: .failure) {
                let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
                Just(1).subscribe(subscriber)
                subscriber.request(.none)
            }
        }

        @Test func askingASubjectForNoValuesTraps() async {
            await #expect(processExitsWith: .failure) {
                let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
                PassthroughSubject<Int, Never>().subscribe(subscriber)
                subscriber.request(.none)
            }
        }

        @Test func askingFlatMapForNoValuesTraps() async {
            await #expect(processExitsWith: .failure) {
                let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
                Just(1).flatMap { Just($0) }.subscribe(subscriber)
                subscriber.request(.none)
            }
        }
    }
#endif

/// Encodes an `Int` as itself.
private struct FailingDecoder: TopLevelDecoder {
    func decode<T: Decodable>(_ type: T.Type, from input: Int) throws -> T { throw TestError(9) }
}

private struct IntCoder: TopLevelEncoder {
    func encode<T: Encodable>(_ value: T) throws -> Int { value as? Int ?? 0 }
}
