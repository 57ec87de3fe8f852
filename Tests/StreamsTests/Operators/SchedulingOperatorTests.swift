import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct SchedulingOperatorTests {
    private static let queueKey = DispatchSpecificKey<String>()

    private func makeQueue(_ name: String) -> DispatchQueue {
        let queue = DispatchQueue(label: name)
        queue.setSpecific(key: Self.queueKey, value: name)
        return queue
    }

    @Test func receiveOnDeliversValuesAndCompletionOnTheScheduler() async {
        let queue = makeQueue("receive")
        let names = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            final class Box: @unchecked Sendable { var names: [String] = []; var cancellable: AnyCancellable? }
            let box = Box()
            box.cancellable = [1, 2].publisher.receive(on: queue).sink(
                receiveCompletion: { _ in
                    box.names.append(DispatchQueue.getSpecific(key: Self.queueKey) ?? "other")
                    continuation.resume(returning: box.names)
                },
                receiveValue: { _ in box.names.append(DispatchQueue.getSpecific(key: Self.queueKey) ?? "other") }
            )
        }
        #expect(names == ["receive", "receive", "receive"])
    }

    @Test func receiveOnCancelledSubscriberGetsNothingMore() {
        let queue = makeQueue("receive-cancel")
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.receive(on: queue).subscribe(subscriber)
        queue.sync {}  // nothing pending
        queue.suspend()
        subject.send(1)
        subscriber.cancel()
        queue.resume()
        queue.sync {}
        #expect(subscriber.log == ["sub"])
    }

    @Test func subscribeOnSubscribesOnTheScheduler() async {
        let queue = makeQueue("subscribe")
        final class Box: @unchecked Sendable { var cancellable: AnyCancellable? }
        let box = Box()
        let name = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let publisher = Deferred { Just(DispatchQueue.getSpecific(key: Self.queueKey) ?? "other") }
            box.cancellable = publisher.subscribe(on: queue).sink { continuation.resume(returning: $0) }
        }
        #expect(name == "subscribe")
        box.cancellable?.cancel()
    }

    @Test func immediateSchedulerRunsSynchronously() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Just(1).receive(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(subscriber.log == ["sub", "1", "finished"])
    }

    @Test func dispatchQueueSchedulerTimeArithmetic() {
        let start = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1_000))
        let later = start.advanced(by: .milliseconds(2))
        #expect(start.distance(to: later) == .nanoseconds(2_000_000))
        #expect(DispatchQueue.SchedulerTimeType.Stride.seconds(1.5) == .milliseconds(1_500))
    }

    @Test func dispatchQueueScheduleAfterRunsTheAction() async {
        let queue = makeQueue("after")
        let ran = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            queue.schedule(after: queue.now.advanced(by: .milliseconds(5))) {
                continuation.resume(returning: DispatchQueue.getSpecific(key: Self.queueKey) == "after")
            }
        }
        #expect(ran)
    }

    @Test func dispatchStrideConversionsSaturateInsteadOfOverflowing() {
        typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        #expect(Stride.seconds(Double.greatestFiniteMagnitude).magnitude == Int.max)
        #expect(Stride.seconds(-Double.greatestFiniteMagnitude).magnitude == Int.min)
        #expect(Stride.seconds(Double.infinity).magnitude == Int.max)
        #expect(Stride.seconds(Int.max).magnitude == Int.max)
        #expect(Stride.milliseconds(Int.min).magnitude == Int.min)
        #expect(Stride.microseconds(Int.max / 10).magnitude == Int.max)
        #expect((Stride.nanoseconds(Int.max) + .nanoseconds(1)).magnitude == Int.max)
        #expect((Stride.nanoseconds(Int.min) - .nanoseconds(1)).magnitude == Int.min)
        #expect((Stride.seconds(4_000_000_000) * .seconds(4_000_000_000)).magnitude == Int.max)
    }

    @Test func immediateStridesTakeFloatLiteralsRoundedTowardsZero() {
        let forward: ImmediateScheduler.SchedulerTimeType.Stride = 14.6
        let backward: ImmediateScheduler.SchedulerTimeType.Stride = -4.1
        #expect(forward == ImmediateScheduler.SchedulerTimeType.Stride(14))
        #expect(backward == ImmediateScheduler.SchedulerTimeType.Stride(-4))
    }

    @Test func immediateRepeatingScheduleRunsOnceAndReturnsTheEmptyCancellable() {
        var runs = 0
        let cancellable = ImmediateScheduler.shared.schedule(after: ImmediateScheduler.shared.now, interval: 10) {
            runs += 1
        }
        #expect(runs == 1)
        #expect(String(describing: cancellable) == "Empty")
        cancellable.cancel()
    }

    @Test func dispatchStridesMultiplyAsNumbersOfSeconds() {
        typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        #expect(Stride.seconds(2) * .seconds(3) == .seconds(6))
        #expect(Stride.milliseconds(500) * .seconds(4) == .seconds(2))
        #expect((Stride.nanoseconds(18) * .microseconds(1)).magnitude == 0)
        #expect((Stride.microseconds(-3) * .nanoseconds(10)).magnitude == 0)
    }

    @Test func dispatchTimeDistanceSaturatesInsteadOfWrapping() {
        typealias Time = DispatchQueue.SchedulerTimeType
        let early = Time(DispatchTime(uptimeNanoseconds: 10_000))
        let later = Time(DispatchTime(uptimeNanoseconds: 10_431))
        let farAway = Time(.distantFuture)
        let largest = Time(DispatchTime(uptimeNanoseconds: UInt64(Int.max)))
        #expect(early.distance(to: later) == .nanoseconds(431))
        #expect(later.distance(to: early) == .nanoseconds(-431))
        #expect(early.distance(to: farAway) == .nanoseconds(.max))
        #expect(farAway.distance(to: early) == .nanoseconds(.max))
        #expect(farAway.distance(to: farAway) == .nanoseconds(0))
        #expect(largest.distance(to: early) == .nanoseconds(-(Int.max - 10_000)))
    }

    @Test func dispatchTimeAdvancesToTheEndsOfTimeWithoutWrapping() {
        typealias Time = DispatchQueue.SchedulerTimeType
        let time = Time(DispatchTime(uptimeNanoseconds: 10_000))
        #expect(time.advanced(by: .nanoseconds(-220)) == Time(DispatchTime(uptimeNanoseconds: 9_780)))
        #expect(time.advanced(by: .nanoseconds(.max)).dispatchTime == .distantFuture)
        #expect(time.advanced(by: .seconds(-1)).dispatchTime.uptimeNanoseconds == 1)
    }

    @Test func dispatchStrideCodesAsCombinesKeyedForm() throws {
        let data = try JSONEncoder().encode(DispatchQueue.SchedulerTimeType.Stride.nanoseconds(419_872))
        #expect(String(decoding: data, as: UTF8.self) == #"{"_nanoseconds":419872}"#)
    }

    @Test func dispatchAndImmediateStridesRoundTripThroughCodable() throws {
        typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        let stride = Stride.milliseconds(-1500)
        #expect(try JSONDecoder().decode(Stride.self, from: JSONEncoder().encode(stride)) == stride)
        let time = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 12_345))
        #expect(
            try JSONDecoder().decode(DispatchQueue.SchedulerTimeType.self, from: JSONEncoder().encode(time)) == time)
        let count = ImmediateScheduler.SchedulerTimeType.Stride(3)
        #expect(
            try JSONDecoder().decode(
                ImmediateScheduler.SchedulerTimeType.Stride.self, from: JSONEncoder().encode(count)) == count)
    }

    @Test func receiveOnSchedulesNothingAfterTheUpstreamCompletedOrACancel() {
        let scheduler = RecordingScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        upstream.finish()
        upstream.finish()
        _ = upstream.send(1)
        #expect(scheduler.log == ["schedule"])
        let other = TestPublisher<Int, Never>()
        let cancelled = TrackingSubscriber<Int, Never>()
        other.receive(on: scheduler).subscribe(cancelled)
        cancelled.cancel()
        _ = other.send(1)
        #expect(scheduler.log == ["schedule"])
        subscriber.cancel()
        upstream.releaseSubscribers()
        other.releaseSubscribers()
    }

    @Test func receiveOnRequestsNothingWhenTheDownstreamCancelsWhileReceivingAValue() {
        let scheduler = TestScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(5)) {
            subscriber, _ in
            subscriber.cancel()
        }
        upstream.receive(on: scheduler).subscribe(subscriber)
        _ = upstream.send(1)
        scheduler.advance()
        #expect(upstream.subscription?.requests == [.max(1)])
        #expect(upstream.subscription?.cancelCount == 1)
    }
}
