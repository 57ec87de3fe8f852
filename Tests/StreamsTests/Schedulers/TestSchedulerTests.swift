import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct TestSchedulerTests {
    @Test func actionsWaitUntilTheClockReachesTheirDate() {
        let scheduler = TestScheduler()
        var ran: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { ran.append("b") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { ran.append("a") }
        scheduler.advance(by: .milliseconds(999))
        #expect(ran == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(ran == ["a"])
        scheduler.advance(by: .seconds(1))
        #expect(ran == ["a", "b"])
        #expect(scheduler.now == .zero.advanced(by: .seconds(2)))
    }

    @Test func actionsDueAtTheSameInstantRunInSchedulingOrder() {
        let scheduler = TestScheduler()
        var ran: [Int] = []
        let date = scheduler.now.advanced(by: .seconds(1))
        for index in 0..<20 {
            scheduler.schedule(after: date) { ran.append(index) }
        }
        scheduler.schedule { ran.append(-1) }
        scheduler.advance(by: .seconds(1))
        #expect(ran == [-1] + Array(0..<20))
    }

    @Test func theClockReadsEachActionsDateWhileItRuns() {
        let scheduler = TestScheduler()
        var seen: [TestScheduler.SchedulerTimeType] = []
        scheduler.schedule(after: .init(nanoseconds: 500)) { seen.append(scheduler.now) }
        scheduler.advance(by: .seconds(1))
        #expect(seen == [.init(nanoseconds: 500)])
        #expect(scheduler.now == .init(nanoseconds: 1_000_000_000))
    }

    @Test func anActionScheduledByAnActionRunsInTheSameAdvanceIfDue() {
        let scheduler = TestScheduler()
        var ran: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
            ran.append("outer")
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { ran.append("inner") }
        }
        scheduler.advance(by: .seconds(3))
        #expect(ran == ["outer", "inner"])
    }

    @Test func aPastDateRunsAtTheNextMoveWithoutMovingTheClockBack() {
        let scheduler = TestScheduler(now: .init(nanoseconds: 10))
        var seen: TestScheduler.SchedulerTimeType?
        scheduler.schedule(after: .zero) { seen = scheduler.now }
        scheduler.advance()
        #expect(seen == .init(nanoseconds: 10))
    }

    @Test func repeatingActionsRunEveryIntervalUntilCancelled() {
        let scheduler = TestScheduler()
        var times: [Int] = []
        let cancellable = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(2)) {
            times.append(scheduler.now.nanoseconds / 1_000_000_000)
        }
        scheduler.advance(by: .seconds(6))
        #expect(times == [1, 3, 5])
        cancellable.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(times == [1, 3, 5])
        #expect(scheduler.scheduledActionCount == 0)
    }

    @Test func aRepeatingActionCanCancelItself() {
        let scheduler = TestScheduler()
        var count = 0
        var cancellable: Cancellable?
        cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
            count += 1
            if count == 3 { cancellable?.cancel() }
        }
        scheduler.advance(by: .seconds(10))
        #expect(count == 3)
        #expect(scheduler.scheduledActionCount == 0)
    }

    @Test func runDrainsTheQueueAndStopsAtTheActionLimit() {
        let scheduler = TestScheduler()
        var ran = 0
        scheduler.schedule(after: .init(nanoseconds: 1_000_000_000_000)) { ran += 1 }
        #expect(scheduler.run() == 1)
        #expect(ran == 1)
        #expect(scheduler.now.nanoseconds == 1_000_000_000_000)
        let forever = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { ran += 1 }
        #expect(scheduler.run(maxActions: 50) == 50)
        forever.cancel()
    }

    @Test func strideLiteralsAreSecondsAndArithmeticSaturates() {
        typealias Stride = TestScheduler.SchedulerTimeType.Stride
        #expect(Stride(integerLiteral: 2) == .milliseconds(2_000))
        #expect(Stride(floatLiteral: 0.25) == .microseconds(250_000))
        #expect((Stride.nanoseconds(.max) + .nanoseconds(1)).magnitude == .max)
        #expect(Stride.seconds(Int.max).magnitude == .max)
        #expect(TestScheduler.SchedulerTimeType(nanoseconds: .max).advanced(by: .seconds(1)).nanoseconds == .max)
    }

    @Test func timesAndStridesRoundTripThroughCodable() throws {
        let value = Pair(time: .init(nanoseconds: 42), stride: .milliseconds(-3))
        let data = try JSONEncoder().encode(value)
        #expect(String(decoding: data, as: UTF8.self).contains("-3000000"))
        #expect(try JSONDecoder().decode(Pair.self, from: data) == value)
    }

    private struct Pair: Codable, Equatable {
        let time: TestScheduler.SchedulerTimeType
        let stride: TestScheduler.SchedulerTimeType.Stride
    }
}
