import Foundation
import Streams
import StreamsFoundation
import Testing

/// A thread that runs its run loop until stopped, for the run-loop-bound publishers.
final class RunLoopThread: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stopped = false
    private var loop: RunLoop?

    init() {
        let thread = Thread { [self] in
            let runLoop = RunLoop.current
            // A far-off timer keeps the loop from returning at once for lack of sources.
            runLoop.add(Timer(timeInterval: 1e6, repeats: false) { _ in }, forMode: .default)
            lock.withLock { loop = runLoop }
            ready.signal()
            while !lock.withLock({ stopped }) {
                _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.02))
            }
        }
        thread.start()
        ready.wait()
    }

    var runLoop: RunLoop { lock.withLock { loop! } }

    func stop() { lock.withLock { stopped = true } }
}

/// Waits (bounded) for `condition`.
func eventually(timeout: Duration = .seconds(120), _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// Thread-safe recorder for values arriving on other threads.
final class Recorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []
    private var threads: [Bool] = []

    func append(_ value: Value) { lock.withLock { stored.append(value) } }
    var values: [Value] { lock.withLock { stored } }
}

@Suite struct SchedulerTests {
    @Test func runLoopRunsScheduledActionsOnItsThreadInOrder() async {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let runLoop = thread.runLoop
        let recorder = Recorder<String>()
        runLoop.schedule { recorder.append("now") }
        runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(30))) {
            recorder.append(RunLoop.current === runLoop ? "later-on-loop" : "later-elsewhere")
        }
        #expect(await eventually { recorder.values.count == 2 })
        #expect(recorder.values == ["now", "later-on-loop"])
    }

    @Test func runLoopRepeatsUntilCancelled() async {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let runLoop = thread.runLoop
        let recorder = Recorder<Int>()
        let cancellable = runLoop.schedule(after: runLoop.now, interval: .milliseconds(10)) { recorder.append(1) }
        #expect(await eventually { recorder.values.count >= 3 })
        cancellable.cancel()
        try? await Task.sleep(for: .milliseconds(50))
        let count = recorder.values.count
        try? await Task.sleep(for: .milliseconds(50))
        #expect(recorder.values.count == count)
    }

    @Test func receiveOnARunLoopDeliversOnItsThread() async {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let runLoop = thread.runLoop
        let recorder = Recorder<Bool>()
        let cancellable = [1, 2, 3].publisher.receive(on: runLoop).sink { _ in
            recorder.append(RunLoop.current === runLoop)
        }
        #expect(await eventually { recorder.values.count == 3 })
        #expect(recorder.values == [true, true, true])
        cancellable.cancel()
    }

    @Test func operationQueueRunsActionsAsOperations() async {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let recorder = Recorder<String>()
        queue.schedule(after: queue.now.advanced(by: .milliseconds(20))) {
            recorder.append(OperationQueue.current === queue ? "later" : "elsewhere")
        }
        queue.schedule { recorder.append(OperationQueue.current === queue ? "now" : "elsewhere") }
        #expect(await eventually { recorder.values.count == 2 })
        #expect(recorder.values == ["now", "later"])
    }

    @Test func operationQueueSchedulesAnActionAsOneBlockOperation() async {
        final class CountingQueue: OperationQueue, @unchecked Sendable {
            private let lock = NSLock()
            private var added: [Operation] = []
            var operationsAdded: [Operation] { lock.withLock { added } }
            override func addOperation(_ op: Operation) {
                lock.withLock { added.append(op) }
                super.addOperation(op)
            }
        }
        let queue = CountingQueue()
        let recorder = Recorder<Int>()
        queue.schedule { recorder.append(1) }
        #expect(queue.operationsAdded.count == 1)
        #expect(queue.operationsAdded.first is BlockOperation)
        #expect(await eventually { recorder.values == [1] })
    }

    @Test func operationQueueRepeatsUntilCancelled() async {
        let queue = OperationQueue()
        let recorder = Recorder<Int>()
        let cancellable = queue.schedule(after: queue.now, interval: .milliseconds(10)) { recorder.append(1) }
        #expect(await eventually { recorder.values.count >= 3 })
        cancellable.cancel()
        try? await Task.sleep(for: .milliseconds(50))
        let count = recorder.values.count
        try? await Task.sleep(for: .milliseconds(50))
        #expect(recorder.values.count == count)
    }

    @Test func foundationStridesAreSecondsAndCodable() throws {
        typealias Stride = FoundationSchedulerTime.Stride
        #expect(Stride.milliseconds(1500) == 1.5)
        #expect(Stride.seconds(2) == 2)
        let time = FoundationSchedulerTime(Date(timeIntervalSince1970: 100))
        #expect(time.distance(to: time.advanced(by: .seconds(3))) == .seconds(3))
        let data = try JSONEncoder().encode(Stride.milliseconds(250))
        #expect(try JSONDecoder().decode(Stride.self, from: data) == .milliseconds(250))
    }
}
