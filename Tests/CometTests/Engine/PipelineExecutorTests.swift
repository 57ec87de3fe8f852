import Locking
import Dispatch
import Foundation
import Testing
@testable import Comet
import CometTestSupport

/// The graph's executor: the execution model every job relies on.
@Suite("Pipeline executor", .timeLimit(.minutes(10)))
struct PipelineExecutorTests {
    @Test func workEnteringAnIdleGraphRunsAtOnceOnTheCallersThread() {
        let executor = PipelineExecutor()
        let ranOn = Locked<pthread_t?>(nil)
        executor.perform { _ in ranOn.withLock { $0 = pthread_self() } }
        #expect(ranOn.withLock { $0 }.map { pthread_equal($0, pthread_self()) != 0 } == true)
    }

    @Test func workSubmittedFromInsideTheGraphRunsAfterTheCurrentWorkNotInsideIt() {
        let executor = PipelineExecutor()
        let order = Locked<[String]>([])
        executor.perform { _ in
            order.withLock { $0.append("outer start") }
            executor.perform { _ in order.withLock { $0.append("inner") } }
            order.withLock { $0.append("outer end") }
        }
        #expect(order.withLock { $0 } == ["outer start", "outer end", "inner"])
    }

    @Test func scheduledWorkNeverRunsOnTheCallersThread() async {
        let executor = PipelineExecutor()
        let caller = pthread_self()
        let ranOnCaller = Locked<Bool?>(nil)
        executor.schedule { _ in ranOnCaller.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 } }
        #expect(await eventually { ranOnCaller.withLock { $0 } != nil })
        #expect(ranOnCaller.withLock { $0 } == false)
    }

    @Test func theGraphIsCurrentOnlyInsideIt() {
        let executor = PipelineExecutor()
        #expect(!executor.isCurrent)
        let inside = Locked(false)
        executor.perform { _ in inside.withLock { $0 = executor.isCurrent } }
        #expect(inside.withLock { $0 })
        #expect(!executor.isCurrent)
    }

    /// Work submitted from many threads at once runs one at a time, each exactly once.
    @Test func concurrentSubmissionsRunSeriallyAndEachOnce() {
        let executor = PipelineExecutor()
        let state = Locked((running: 0, maximum: 0, count: 0))
        DispatchQueue.concurrentPerform(iterations: 2_000) { index in
            let work: @Sendable (borrowing GraphToken) -> Void = { _ in
                state.withLock {
                    $0.running += 1; $0.maximum = max($0.maximum, $0.running)
                }
                state.withLock {
                    $0.running -= 1; $0.count += 1
                }
            }
            if index.isMultiple(of: 2) { executor.perform(work) } else { executor.schedule(work) }
        }
        _ = executor.sync { _ in 0 }  // everything submitted before is done
        let result = state.withLock { $0 }
        #expect(result.count == 2_000)
        #expect(result.maximum == 1)
    }

    @Test func suspendedWorkWaitsUntilResumed() {
        let executor = PipelineExecutor()
        let ran = Locked(false)
        executor.suspend()
        executor.perform { _ in ran.withLock { $0 = true } }
        #expect(!ran.withLock { $0 })
        executor.resume()
        #expect(ran.withLock { $0 })
    }

    @Test func workHandedOutForAfterLeavingRunsOnTheSameThreadOutsideTheGraph() {
        let executor = PipelineExecutor()
        let seen = Locked<(insideGraph: Bool, sameThread: Bool)?>(nil)
        let caller = pthread_self()
        executor.perform { graph in
            executor.performOnThisThreadAfterGraph(graph) {
                seen.withLock { $0 = (executor.isCurrent, pthread_equal(pthread_self(), caller) != 0) }
            }
        }
        #expect(seen.withLock { $0 }?.insideGraph == false)
        #expect(seen.withLock { $0 }?.sameThread == true)
    }

    @Test func afterLeavingWorkRunsOnceTheGraphWorkQueuedMeanwhileIsDone() {
        let executor = PipelineExecutor()
        let order = Locked<[String]>([])
        executor.perform { graph in
            executor.performOnThisThreadAfterGraph(graph) { order.withLock { $0.append("after leaving") } }
            executor.perform { _ in order.withLock { $0.append("queued graph work") } }
        }
        #expect(order.withLock { $0 } == ["queued graph work", "after leaving"])
    }

    /// A chain where each light item enters the graph, which hands out the next one: the items
    /// run one after another in one loop, not nested in each other's stack frames.
    @Test func chainedAfterLeavingWorkDoesNotNest() {
        let executor = PipelineExecutor()
        let state = Locked((depth: 0, deepest: 0, count: 0))
        @Sendable func step(_ remaining: Int) {
            state.withLock {
                $0.depth += 1; $0.deepest = max($0.deepest, $0.depth); $0.count += 1
            }
            if remaining > 0 {
                executor.perform { graph in executor.performOnThisThreadAfterGraph(graph) { step(remaining - 1) } }
            }
            state.withLock { $0.depth -= 1 }
        }
        executor.perform { graph in executor.performOnThisThreadAfterGraph(graph) { step(9_999) } }
        #expect(state.withLock { $0.count } == 10_000)
        #expect(state.withLock { $0.deepest } == 1)
    }

    /// Many requests finishing together hand out a large batch; part of it goes to a worker.
    /// Every item still runs exactly once, outside the graph.
    @Test func aLargeBatchOfAfterLeavingWorkRunsEachItemOnceOutsideTheGraph() async {
        let executor = PipelineExecutor()
        let state = Locked((runs: [Int](repeating: 0, count: 100), insideGraph: 0))
        executor.perform { graph in
            for index in 0..<100 {
                executor.performOnThisThreadAfterGraph(graph) {
                    state.withLock {
                        $0.runs[index] += 1; if executor.isCurrent { $0.insideGraph += 1 }
                    }
                }
            }
        }
        #expect(await eventually { state.withLock { $0.runs.reduce(0, +) } == 100 })
        #expect(state.withLock { $0.runs.allSatisfy { $0 == 1 } })
        #expect(state.withLock { $0.insideGraph } == 0)
    }

    /// Work scheduled at every moment of a woken drainer's life (while it drains, while it
    /// lingers for more, as it lets go) runs, each item once.
    @Test func workScheduledAroundALingeringDrainerAlwaysRuns() async {
        let executor = PipelineExecutor()
        let runs = Locked(0)
        for index in 0..<2_000 {
            executor.schedule { _ in runs.withLock { $0 += 1 } }
            // Gaps from none to past the linger, so some items arrive while it lingers and some
            // after it stopped.
            if index.isMultiple(of: 3) { usleep(useconds_t(index % 40)) }
        }
        #expect(await eventually { runs.withLock { $0 } == 2_000 })
    }
}

/// ``PipelineExecutor/performWaitingBriefly(_:)``: a caller about to await its result.
@Suite("Pipeline executor: waiting briefly for a busy graph", .timeLimit(.minutes(10)))
struct PipelineExecutorWaitingTests {
    /// Another thread holds the graph for 50 ms; a caller allowed to wait 10 s runs its work on
    /// its own thread once the graph is free, instead of leaving it to the other thread.
    @Test func aWaitingCallerRunsItsWorkItselfOnceTheGraphIsFree() async {
        let executor = PipelineExecutor(entryWaitNanoseconds: 10_000_000_000)
        let ranOnCaller = await workRunOnCallerAfterBusyGraph(executor)
        #expect(ranOnCaller == true)
    }

    /// Past its wait limit, the caller queues its work as ``PipelineExecutor/perform(_:)``
    /// does: the thread in the graph runs it, and nothing waits longer than the limit. (The
    /// thread in the graph stays there until the caller has returned, so the order does not
    /// depend on how the threads are scheduled.)
    @Test func pastTheWaitLimitTheWorkIsQueuedForTheThreadInTheGraph() async {
        let executor = PipelineExecutor(entryWaitNanoseconds: 0)
        let holderInside = DispatchSemaphore(value: 0)
        let callerReturned = DispatchSemaphore(value: 0)
        let result = Locked<(holder: pthread_t?, ranOn: pthread_t?)>((nil, nil))
        DispatchQueue.global().async {
            executor.perform { _ in
                result.withLock { $0.holder = pthread_self() }
                holderInside.signal()
                callerReturned.wait()
            }
        }
        DispatchQueue.global().async {
            holderInside.wait()
            executor.performWaitingBriefly { _ in result.withLock { $0.ranOn = pthread_self() } }
            callerReturned.signal()
        }
        #expect(await eventually { result.withLock { $0.ranOn } != nil })
        let (holder, ranOn) = result.withLock { $0 }
        #expect(holder != nil && ranOn != nil && pthread_equal(holder!, ranOn!) != 0)
    }

    @Test func anIdleGraphRunsTheWorkAtOnceOnTheCallersThread() {
        let executor = PipelineExecutor()
        let ranOn = Locked<pthread_t?>(nil)
        executor.performWaitingBriefly { _ in ranOn.withLock { $0 = pthread_self() } }
        #expect(ranOn.withLock { $0 }.map { pthread_equal($0, pthread_self()) != 0 } == true)
    }

    /// Light work is run by the thread that handed it out: a thread that left the graph does
    /// not take the light work another thread hands out while that thread is still inside
    /// (it would finish that thread's request, and resuming its caller from here costs a
    /// thread wake-up).
    @Test func lightWorkIsRunByTheThreadThatHandedItOut() async {
        let executor = PipelineExecutor()
        let firstIsRunning = DispatchSemaphore(value: 0)
        let secondHandedOut = DispatchSemaphore(value: 0)
        let secondDone = DispatchSemaphore(value: 0)
        let seen = Locked<(handedOutOn: pthread_t?, ranOn: pthread_t?)>((nil, nil))
        DispatchQueue.global().async {
            executor.perform { graph in
                executor.performOnThisThreadAfterGraph(graph) {
                    firstIsRunning.signal()
                    secondHandedOut.wait()  // the first thread's loop looks for more after this
                }
            }
        }
        DispatchQueue.global().async {
            firstIsRunning.wait()
            executor.perform { graph in
                seen.withLock { $0.handedOutOn = pthread_self() }
                executor.performOnThisThreadAfterGraph(graph) { seen.withLock { $0.ranOn = pthread_self() } }
                secondHandedOut.signal()
                usleep(100_000)  // still in the graph while the first thread's loop looks
            }
            secondDone.signal()
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                secondDone.wait()
                continuation.resume()
            }
        }
        let (handedOutOn, ranOn) = seen.withLock { $0 }
        #expect(handedOutOn != nil && ranOn != nil && pthread_equal(handedOutOn!, ranOn!) != 0)
    }

    /// Holds the graph on one thread for 50 ms while another thread submits work with
    /// `performWaitingBriefly`; returns whether that work ran on the submitting thread.
    private func workRunOnCallerAfterBusyGraph(_ executor: PipelineExecutor) async -> Bool? {
        let holderInside = DispatchSemaphore(value: 0)
        let result = Locked<Bool?>(nil)
        DispatchQueue.global().async {
            executor.perform { _ in
                holderInside.signal()
                usleep(50_000)
            }
        }
        DispatchQueue.global().async {
            holderInside.wait()
            let caller = pthread_self()
            executor.performWaitingBriefly { _ in result.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 } }
        }
        _ = await eventually { result.withLock { $0 } != nil }
        return result.withLock { $0 }
    }
}
