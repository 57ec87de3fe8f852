#if canImport(Glibc)
    import Glibc
#endif
import Streams
import Testing

/// print and breakpoint: debugging operators that pass every event through unchanged.
@Suite struct DebuggingOperatorTests {
    final class Lines: TextOutputStream, @unchecked Sendable {
        var text = ""
        func write(_ string: String) { text += string }
    }

    @Test func printLogsEveryEventWithThePrefix() {
        let lines = Lines()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        [1].publisher.print("tag", to: lines).subscribe(subscriber)
        let logged = lines.text.split(separator: "\n").map(String.init)
        #expect(logged.count == 4)
        #expect(logged.first?.hasPrefix("tag: receive subscription: (") == true)
        #expect(
            Array(logged.dropFirst()) == ["tag: request max: (2)", "tag: receive value: (1)", "tag: receive finished"])
        #expect(subscriber.log == ["sub", "1", "finished"])
    }

    @Test func printLogsCancelAndErrorsWithoutAPrefix() {
        let lines = Lines()
        let upstream = TestPublisher<Int, TestError>()
        let failing = TrackingSubscriber<Int, TestError>(initialDemand: .none)
        Fail<Int, TestError>(error: TestError(2)).print(to: lines).subscribe(failing)
        #expect(lines.text.hasSuffix("receive error: (E2)\n"))
        let cancelled = TrackingSubscriber<Int, TestError>(initialDemand: .none)
        upstream.print(to: lines).subscribe(cancelled)
        cancelled.cancel()
        #expect(lines.text.hasSuffix("receive cancel\n"))
    }

    final class Writes: TextOutputStream, @unchecked Sendable {
        var writes: [String] = []
        func write(_ string: String) { writes.append(string) }
    }

    @Test func printWritesEachLineAsPrintToDoes() {
        let stream = Writes()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .unlimited)
        Empty<Int, Never>().print(to: stream).subscribe(subscriber)
        #expect(Array(stream.writes.dropFirst(3)) == ["", "request unlimited", "\n", "", "receive finished", "\n"])
    }

    @Test func printLogsTheDemandReturnedFromReceiveAsSynchronous() {
        let lines = Lines()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none, demandPerValue: .max(2))
        upstream.print(to: lines).subscribe(subscriber)
        upstream.send(1)
        #expect(lines.text.hasSuffix("receive value: (1)\nrequest max: (2) (synchronous)\n"))
        subscriber.cancel()
    }

    @Test func printLogsEverySubscriptionThatArrives() {
        let lines = Lines()
        let upstream = ManualPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .none)
        upstream.print(to: lines).subscribe(subscriber)
        upstream.subscriber?.receive(subscription: TestSubscription())
        let second = TestSubscription()
        upstream.subscriber?.receive(subscription: second)
        #expect(second.cancelCount == 1)
        #expect(lines.text.components(separatedBy: "receive subscription").count == 3)
        subscriber.cancel()
    }

    @Test func handleEventsReportsACancelBeforeTheSubscription() throws {
        let upstream = ManualPublisher<Int, Never>()
        var cancels = 0
        upstream.handleEvents(receiveCancel: { cancels += 1 }).subscribe(TrackingSubscriber<Int, Never>())
        try #require(upstream.operatorSubscription).cancel()
        #expect(cancels == 1)
    }

    @Test func breakpointThatNeverStopsPassesEverythingThrough() {
        let subscriber = TrackingSubscriber<Int, TestError>()
        [1, 2].publisher.setFailureType(to: TestError.self)
            .breakpoint(receiveOutput: { _ in false })
            .breakpointOnError()
            .subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "2", "finished"])
    }

    @Test func breakpointPassesTheUpstreamsSubscriptionThrough() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.breakpoint(receiveOutput: { _ in false }).subscribe(subscriber)
        #expect(subscriber.subscription as? TestSubscription === upstream.subscription)
        #expect(upstream.subscription?.requests == [.max(2)])
    }
}

#if os(Linux)
    @Suite struct BreakpointTrapTests {
        @Test func aBreakpointThatStopsEndsTheProcessWithSIGTRAPWithoutADebugger() async {
            await #expect(processExitsWith: .signal(SIGTRAP)) {
                _ = Just(1).breakpoint(receiveOutput: { _ in true }).sink { _ in }
            }
        }
    }
#endif
