import Dispatch
import Synchronization
import Locking
#if canImport(Glibc)
    import Glibc
#endif

/// The one execution context of a pipeline's task graph, and the engine's execution model.
///
/// **The model.** Everything a pipeline shares between requests (its job pools, jobs and their
/// subscriptions, work queues, the rate limiter, the decoded-image backlog) is *graph state*, and
/// graph state is touched only inside this executor. The executor is serial, and it is not a
/// thread: whichever thread submits work while the graph is idle runs that work at once, on its
/// own stack, then keeps running whatever other threads submitted meanwhile until nothing is
/// left (as `Streams`' outbox drains). A thread that finds the graph busy only enqueues. So an
/// uncontended entry costs one lock and unlock instead of a thread wake-up, and the result of a
/// decode continues in the graph on the worker that produced it. Nothing heavy runs in the graph
/// (no decode, processor, encode or disk I/O), so a drain is short.
///
/// **Every context a request touches**, in order:
/// 1. *The caller's thread*: `image(for:)`, `imageTask(with:)`, `loadImage(with:)` and
///    `imageStream(with:)` create the ``ImageTask`` and look in the memory cache (its own lock); a
///    hit is delivered from here without entering the graph. `image(for:)` and `data(for:)` then
///    enter the graph here with ``performWaitingBriefly(_:)`` (their caller suspends right
///    after, so its thread does the graph's part, waiting up to 20 µs for a graph another
///    thread is in rather than leaving the work to that thread); the others ``schedule(_:)``
///    it, as do `cancel()` and priority changes, so their caller pays an enqueue and goes on.
/// 2. *The graph* (this executor, on whichever thread drains it): the task subscribes to its
///    job; jobs are created, coalesced, prioritised and cancelled; the rate limiter and the work
///    queues decide what starts; the data loader's `loadData` is called (it only starts a
///    transfer); the memory cache is written, and original data handed to the disk cache (whose
///    writer does the I/O).
/// 3. *A worker* (Dispatch's global `.userInitiated` queue, through
///    ``WorkQueue/run(priority:light:_:_:then:)``): disk-cache reads, decoding (previews and final),
///    processors, encoding for the disk cache. Each hands its result back to the graph on its
///    own thread.
///    *The thread leaving the graph* (``performAfterLeaving(_:_:)``), instead of a worker, for work
///    lighter than a thread wake-up: the decode of a file of at most 64×64 declared pixels. It
///    runs after the graph is released, so it never holds the graph up, on the thread that
///    handed it out (usually the one whose caller awaits it), which then delivers its result
///    into the graph itself, waiting briefly for the graph as a caller does.
/// 4. *The loader's threads* (URLSession's delegate queue, a custom loader's callbacks, a data
///    closure's Swift task): chunks, progress and completion enter the graph from there.
/// 5. *Timers*: the rate limiter's refill, a Dispatch timer that enters the graph; a retry's
///    wait (``ImagePipeline/RetryPolicy``), a Swift task that sleeps outside the graph, holding
///    no download slot, and enters it again to start the next attempt.
/// 6. *Delivery*: an awaiting Swift task is resumed (it continues on its own executor);
///    completion and progress handlers, and the task-event hook, run on
///    ``ImagePipeline/Configuration/callbackQueue``; `ImageTask.events` streams are yielded to
///    from the graph.
///
/// The other hooks (``ImagePipeline/Hooks``: per-request loader and disk cache, cache key,
/// `willCacheImage` and `willCacheData`) are called where their decision is needed, in the
/// graph or on the worker doing that step: they must return quickly and must not call back
/// into the pipeline synchronously.
///
/// **Why this model**: an executor that is a thread (a serial queue) costs a thread wake-up at
/// every entry (caller, loader, decode, and each work-queue bookkeeping step). A global actor
/// has the same cost from the non-async contexts the graph is entered from (URLSession
/// callbacks, Dispatch workers): each entry is a new `Task` and an executor hop. Draining on the
/// arriving thread makes an uncontended entry a lock and unlock. Under contention, a caller that
/// would suspend until its result comes back waits a few microseconds for the graph instead of
/// queuing its work: work queued for the draining thread finishes there, and resuming a
/// suspended Swift task from another thread costs a thread wake-up. The figures are in
/// BENCHMARKS.md ("Pipeline").
///
/// **The compiler checks the model.** Every closure the executor runs receives a ``GraphToken``,
/// borrowed, and every graph-only method (of jobs, work queues, the rate limiter, the backlog,
/// the context's pools, an ``ImageTask``'s graph side) requires one. Only the executor makes
/// tokens, and a borrowed non-copyable value can be neither copied, stored, nor captured by an
/// escaping closure: code that is not running in the graph has no token, so a call into the
/// graph from a worker, a loader callback or a caller's thread does not compile. The token is
/// empty, so it costs nothing at run time.
///
/// Thread-safe; `@unchecked Sendable`: guarded by its lock (`state`), and the queued closures
/// are only run by the one draining thread.
final class PipelineExecutor: @unchecked Sendable {
    private struct State {
        var pending: [Work?] = []
        var head = 0
        var isRunning = false
        var isSuspended = false
        var isDrainScheduled = false
        #if DEBUG
            /// The thread in the graph (``isCurrent``, debug builds only).
            var owner: pthread_t?
        #endif
        /// Light work handed to the draining thread for after it leaves the graph.
        var afterLeaving: [LightItem] = []

        /// The calling thread enters the graph.
        mutating func enter(_ isBusy: borrowing Atomic<Bool>) {
            isRunning = true
            isBusy.store(true, ordering: .relaxed)
            #if DEBUG
                owner = pthread_self()
            #endif
        }

        /// The thread in the graph leaves it.
        mutating func leave(_ isBusy: borrowing Atomic<Bool>) {
            isRunning = false
            isBusy.store(false, ordering: .relaxed)
            #if DEBUG
                owner = nil
            #endif
        }

        mutating func popFirst() -> Work? {
            guard head < pending.count else {
                if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }
                head = 0
                return nil
            }
            let work = pending[head]
            pending[head] = nil
            head += 1
            if head >= 1024 && head * 2 >= pending.count {
                pending.removeFirst(head)
                head = 0
            }
            return work
        }
    }

    /// A queued closure. Wrapped so that arrays hold it as it is: an array of bare closures
    /// stores them generically, and converting each one in and out allocates a thunk.
    fileprivate struct Work {
        let run: @Sendable (borrowing GraphToken) -> Void
    }

    /// Light work for after leaving the graph (``performAfterLeaving(_:_:)``): it runs outside
    /// the graph, so it gets no token.
    struct LightItem {
        let run: @Sendable () -> Void
    }

    private let state = Locked(State())
    /// Mirrors `State.isRunning` (written under the lock), for ``performWaitingBriefly(_:)`` to
    /// watch without taking the lock the draining thread needs.
    private let isBusy = Atomic<Bool>(false)

    /// Runs `work` in the graph: now, on this thread, if the graph is idle; otherwise after what
    /// is already queued, on the thread that is draining it. Never waits for another thread.
    func perform(_ work: @escaping @Sendable (borrowing GraphToken) -> Void) {
        let runsNow = state.withLock { state -> Bool in
            guard !state.isRunning, !state.isSuspended else {
                state.pending.append(Work(run: work))
                return false
            }
            state.enter(isBusy)
            return true
        }
        guard runsNow else { return }
        work(GraphToken(self))
        drain()
    }

    /// How long ``performWaitingBriefly(_:)`` watches a busy graph before queuing its work.
    let entryWaitNanoseconds: UInt64

    /// - Parameter entryWaitNanoseconds: see ``performWaitingBriefly(_:)``; 20 µs by default,
    ///   several times a request's part in the graph.
    init(entryWaitNanoseconds: UInt64 = 20_000) {
        self.entryWaitNanoseconds = entryWaitNanoseconds
    }

    /// ``perform(_:)`` for a caller that suspends until the work's result comes back
    /// (`image(for:)`, `data(for:)`). When another thread is in the graph, it first watches for
    /// up to ``entryWaitNanoseconds`` for the graph to come free, then runs the work itself.
    /// Why: work queued for the draining thread finishes there, and resuming the caller's
    /// suspended task from that thread costs a thread wake-up, while a request's part in the
    /// graph takes a few microseconds.
    func performWaitingBriefly(_ work: @escaping @Sendable (borrowing GraphToken) -> Void) {
        if isBusy.load(ordering: .relaxed) {
            let deadline = Self.monotonicNanoseconds() + entryWaitNanoseconds
            var polls = 0
            while isBusy.load(ordering: .relaxed) {
                polls &+= 1
                if polls & 1023 == 0, Self.monotonicNanoseconds() >= deadline { break }
            }
        }
        perform(work)
    }

    /// Queues `work` in the graph without ever running it on the calling thread: for entry points
    /// whose caller goes on with its own work (`imageTask(with:)`, `cancel()`), so it pays an
    /// enqueue, not the graph's work. When the graph is idle, a worker is woken to drain it.
    func schedule(_ work: @escaping @Sendable (borrowing GraphToken) -> Void) {
        let wakesDrainer = state.withLock { state -> Bool in
            state.pending.append(Work(run: work))
            guard !state.isRunning, !state.isSuspended, !state.isDrainScheduled else { return false }
            state.isDrainScheduled = true
            return true
        }
        guard wakesDrainer else { return }
        DispatchQueue.global(qos: .userInitiated).async { self.drainScheduled() }
    }

    /// A woken drainer: drains, then lingers for ``lingerNanoseconds`` in case more work is
    /// scheduled (a caller creating many tasks in a row schedules one start after another).
    /// While it lingers, ``schedule(_:)`` only enqueues: without the linger, a drainer that
    /// caught up went idle and the next task woke another, a thread wake-up per task.
    private func drainScheduled() {
        var idleSince: UInt64?
        while true {
            let step = state.withLock { state -> DrainerStep in
                if !state.isRunning, !state.isSuspended, state.head < state.pending.count {
                    state.enter(isBusy)
                    return .drain
                }
                // Nothing to run here now (no work, or another thread is draining it).
                if let idleSince, Self.monotonicNanoseconds() - idleSince >= Self.lingerNanoseconds {
                    state.isDrainScheduled = false
                    return .stop
                }
                return .linger
            }
            switch step {
            case .drain:
                drain()
                idleSince = nil
            case .linger:
                if idleSince == nil { idleSince = Self.monotonicNanoseconds() }
                sched_yield()
            case .stop:
                return
            }
        }
    }

    private enum DrainerStep { case drain, linger, stop }

    /// How long a woken drainer waits for more scheduled work before it lets its thread go.
    static let lingerNanoseconds: UInt64 = 20_000

    private static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Runs queued work until none is left (or the executor is suspended), then lets go, then
    /// runs the light work this thread handed out with ``performAfterLeaving(_:_:)`` while it
    /// was in the graph (taken under the same lock that lets go of the graph: only the thread
    /// in the graph hands light work out, so what is there then is this thread's own).
    private func drain() {
        let thread = LightWork.ofThisThread
        var light = thread.takeSpareBuffer()
        let graph = GraphToken(self)
        while true {
            let next = state.withLock { state -> Work? in
                if !state.isSuspended, let work = state.popFirst() { return work }
                state.leave(isBusy)
                // The executor keeps the emptied buffer: handing light work out allocates
                // nothing in the steady state.
                swap(&state.afterLeaving, &light)
                return nil
            }
            guard let next else { break }
            next.run(graph)
        }
        thread.run(light)
    }

    /// Queues `work` to run on the thread draining the graph, right after it leaves the graph
    /// (other threads may then enter it): for work too light to be worth a thread wake-up (a
    /// decode of a few thousand pixels costs less than handing it to a worker), which
    /// therefore never runs *in* the graph. Only the graph can call it (`graph`).
    func performAfterLeaving(_ graph: borrowing GraphToken, _ work: @escaping @Sendable () -> Void) {
        state.withLock { $0.afterLeaving.append(LightItem(run: work)) }
    }

    // MARK: Tests (debug builds only: production code cannot call these)

    #if DEBUG
        /// `true` when the calling thread is the one running the graph.
        var isCurrent: Bool {
            state.withLock { state in
                guard state.isRunning, let owner = state.owner else { return false }
                return pthread_equal(owner, pthread_self()) != 0
            }
        }

        /// Holds queued work (tests: to order events deterministically). Work submitted while
        /// suspended waits; the work running now finishes.
        func suspend() {
            state.withLock { $0.isSuspended = true }
        }

        /// Releases work held by ``suspend()``; this thread drains it if the graph is idle.
        func resume() {
            let runsNow = state.withLock { state -> Bool in
                state.isSuspended = false
                guard !state.isRunning, state.head < state.pending.count else { return false }
                state.enter(isBusy)
                return true
            }
            if runsNow { drain() }
        }

        /// Runs `body` in the graph and waits for its result. For tests and diagnostics only: it
        /// blocks the calling thread, and must not be called from inside the graph.
        func sync<T: Sendable>(_ body: @escaping @Sendable (borrowing GraphToken) -> T) -> T {
            precondition(!isCurrent, "PipelineExecutor.sync called from inside the graph would wait for itself")
            let result = Locked<T?>(nil)
            let done = DispatchSemaphore(value: 0)
            perform { graph in
                let value = body(graph)
                result.withLock { $0 = value }
                done.signal()
            }
            done.wait()
            return result.withLock { $0! }
        }
    #endif
}

/// Proof that the code holding it runs in a pipeline's graph: only ``PipelineExecutor`` makes
/// one, and hands it, borrowed, to each closure it runs in the graph. Every graph-only method
/// takes one (conventionally its last parameter, `_ graph: borrowing GraphToken`), so calling
/// it from outside the graph does not compile: a borrowed non-copyable value cannot be copied,
/// stored, returned or captured by an escaping closure, so it never reaches a worker, a loader
/// callback or a timer.
///
/// Empty in release builds (free to pass). Debug builds also record which executor made it,
/// for the one check the compiler cannot make: that an object is touched from *its own*
/// pipeline's graph (``assertIsGraph(of:)``).
struct GraphToken: ~Copyable {
    #if DEBUG
        private let executor: ObjectIdentifier
    #endif

    fileprivate init(_ executor: PipelineExecutor) {
        #if DEBUG
            self.executor = ObjectIdentifier(executor)
        #endif
    }

    /// Stops the program in debug builds when this token comes from another pipeline's graph
    /// than `executor`'s. Free in release builds.
    @inline(__always)
    func assertIsGraph(
        of executor: PipelineExecutor, _ function: StaticString = #function, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        #if DEBUG
            precondition(
                self.executor == ObjectIdentifier(executor),
                "\(function) must run in its own pipeline's graph", file: file, line: line)
        #endif
    }
}
