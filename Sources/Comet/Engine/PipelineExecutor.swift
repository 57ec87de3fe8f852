import Dispatch
import Synchronization
import Locking
#if canImport(Glibc)
    import Glibc
#endif

/// The one execution context of a pipeline's task graph: a serial executor that is not a thread.
///
/// Graph state (job pools, jobs and their subscriptions, the work queues, the rate limiter, the
/// decoded-image backlog) is touched only in closures this executor runs. A thread that submits
/// work while the graph is idle runs it at once, on its own stack, then drains what other
/// threads submitted meanwhile. A thread that finds the graph busy enqueues (``schedule(_:)``,
/// ``perform(_:)``) or first waits a few microseconds for it (``performWaitingBriefly(_:)``).
/// Work lighter than a thread wake-up that must not hold the graph up runs once the draining
/// thread lets go (``performOnThisThreadAfterGraph(_:_:)``). Nothing heavy runs in the graph.
///
/// Every closure it runs receives a borrowed ``GraphToken``, which graph-only methods require.
/// Only this file makes tokens, so code outside the graph cannot call those methods
/// (`GraphConfinementTests`).
///
/// The execution model is described once, in `docs/architecture.md` ("The execution model"):
/// every context a request passes through, what each may touch, and why the graph is built this
/// way.
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
        var afterLeaving: [InlineWorkItem] = []

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

    /// Light work for after leaving the graph (``performOnThisThreadAfterGraph(_:_:)``): it runs outside
    /// the graph, so it gets no token.
    struct InlineWorkItem {
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
    /// caught up would go idle and the next task would wake another, a thread wake-up per task.
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
    /// runs the light work this thread handed out with ``performOnThisThreadAfterGraph(_:_:)`` while it
    /// was in the graph (taken under the same lock that lets go of the graph: only the thread
    /// in the graph hands light work out, so what is there then is this thread's own).
    private func drain() {
        let thread = InlineWorkLoop.ofThisThread
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
    func performOnThisThreadAfterGraph(_ graph: borrowing GraphToken, _ work: @escaping @Sendable () -> Void) {
        state.withLock { $0.afterLeaving.append(InlineWorkItem(run: work)) }
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

        /// How many pieces of work wait in the queue (tests: to know that work held by
        /// ``suspend()`` has arrived).
        var queuedWorkCount: Int {
            state.withLock { $0.pending.count - $0.head }
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
