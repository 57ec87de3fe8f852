import Dispatch
import Foundation
import Streams
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
        #expect((Stride.nanoseconds(Int.max / 2) * .nanoseconds(3)).magnitude == Int.max)
    }

    @Test func dispatchAndImmediateStridesRoundTripThroughCodable() throws {
        typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        let stride = Stride.milliseconds(-1500)
        #expect(try JSONDecoder().decode(Stride.self, from: JSONEncoder().encode(stride)) == stride)
        let time = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 12_345))
        #expect(try JSONDecoder().decode(DispatchQueue.SchedulerTimeType.self, from: JSONEncoder().encode(time)) == time)
        let count = ImmediateScheduler.SchedulerTimeType.Stride(3)
        #expect(try JSONDecoder().decode(ImmediateScheduler.SchedulerTimeType.Stride.self, from: JSONEncoder().encode(count)) == count)
    }
}
