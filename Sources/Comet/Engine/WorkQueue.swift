import Dispatch

/// A priority queue of work with a concurrency limit: the next item to start is the one with
/// the highest priority, first-in first-out among equals. One per pipeline stage (data loading,
/// decoding, processing, disk-cache I/O). A running item holds one of the queue's
/// ``maxConcurrentCount`` slots until it finishes.
///
/// Confined to its pipeline's graph (``PipelineExecutor``): every method takes the graph's
/// ``GraphToken``. Heavy work goes through ``run(priority:light:_:_:then:)``, the engine's one way
/// to leave the graph and come back.
final class WorkQueue: @unchecked Sendable {
    /// One queued or running piece of work.
    final class Item: @unchecked Sendable {
        // Graph-confined like the WorkQueue itself.
        // Dropped once the work starts or is cancelled while pending: a job keeps its work item
        // and the work captures the job (and its inputs), so holding it longer would be a cycle.
        fileprivate var work: Work?
        fileprivate var sequence: Int
        fileprivate var priority: ImageRequest.Priority
        fileprivate var state = State.pending
        fileprivate weak var queue: WorkQueue?
        /// Whether the item produces a decoded bitmap that counts against the queue's backlog.
        fileprivate let isAdmissionChecked: Bool
        /// The backlog ticket taken when an admission-checked item started.
        fileprivate var ticket: DecodedImageBacklog.Ticket?

        enum State { case pending, running, finished, cancelled }

        fileprivate init(
            priority: ImageRequest.Priority, sequence: Int, isAdmissionChecked: Bool, work: @escaping Work
        ) {
            self.priority = priority
            self.sequence = sequence
            self.isAdmissionChecked = isAdmissionChecked
            self.work = work
        }

        /// Changes the priority; a pending item moves to its new place in line.
        func setPriority(_ priority: ImageRequest.Priority, _ graph: borrowing GraphToken) {
            guard priority != self.priority else { return }
            self.priority = priority
            if state == .pending { queue?.requeue(self, graph) }
        }

        /// Removes a pending item, or marks a running one cancelled (its owner stops the work
        /// itself; the slot stays taken until the work calls ``finish(_:)``, and a worker's result
        /// is then dropped).
        func cancel(_ graph: borrowing GraphToken) {
            switch state {
            case .pending:
                state = .cancelled
                work = nil
                queue?.pendingCount -= 1
                queue?.discardStaleEntriesIfIdle()
                queue?.heldBack?.drain(graph)
            case .running:
                state = .cancelled
            case .finished, .cancelled:
                break
            }
        }

        /// Ends the work and frees its slot: the next item may start at once. Called once, in
        /// the graph, by the work itself (``run(priority:light:_:_:then:)`` does it for you).
        func finish(_ graph: borrowing GraphToken) {
            guard let queue else { return }
            self.queue = nil
            if state == .running { state = .finished }
            ticket = nil
            queue.runningCount -= 1
            queue.drain(graph)
        }

        /// Whether the item was cancelled (a running item's result is then dropped).
        func isCancelled(_ graph: borrowing GraphToken) -> Bool { state == .cancelled }
    }

    /// Work that runs in the graph when its item gets a slot.
    typealias Work = (borrowing GraphToken, Item) -> Void

    /// The graph this queue lives in.
    let executor: PipelineExecutor
    /// How many items may run at once.
    let maxConcurrentCount: Int
    /// The decoding queue's bound on decoded bitmaps: an admission-checked item starts only
    /// when the backlog has room (and takes a ticket), else it and everything behind it wait
    /// until a ticket is given back (``ticketReturned(_:)``).
    private let backlog: DecodedImageBacklog?
    /// A queue whose waiting items hold this one's back: an item here starts only while `queue`
    /// has fewer than `limit` pending items (downloads wait while downloaded images wait for a
    /// decoder, so encoded bytes do not pile up in memory when decoding is the slower stage).
    private let heldBackBy: (queue: WorkQueue, limit: Int)?
    /// The queue this one holds back, drained when pending items leave this one (started or
    /// cancelled). The one link that cannot be a `let`: each of the two queues refers to the
    /// other, so the held-back queue's `init` sets it, once, before either queue is used.
    private weak var heldBack: WorkQueue?

    // One FIFO per priority; stale entries (cancelled or moved) are skipped when popped.
    private var buckets: [[(item: Item, sequence: Int)]] = Array(
        repeating: [], count: ImageRequest.Priority.allCases.count)
    private var heads = Array(repeating: 0, count: ImageRequest.Priority.allCases.count)
    private var nextSequence = 0
    private var runningCount = 0
    private var pendingCount = 0

    /// - Parameters:
    ///   - backlog: the bound an admission-checked item's start waits for (the decoding queue's).
    ///   - heldBackBy: a queue whose pending items hold this one's back, and how many may wait
    ///     there before this one stops starting items (the data-loading queue's).
    init(
        maxConcurrentCount: Int, executor: PipelineExecutor, backlog: DecodedImageBacklog? = nil,
        heldBackBy: (queue: WorkQueue, limit: Int)? = nil
    ) {
        self.executor = executor
        self.maxConcurrentCount = max(1, maxConcurrentCount)
        self.backlog = backlog
        self.heldBackBy = heldBackBy
        heldBackBy?.queue.heldBack = self
    }

    /// How many items run (tests).
    func runningCount(_ graph: borrowing GraphToken) -> Int { runningCount }

    /// A backlog ticket one of this queue's items took was given back: another may start.
    func ticketReturned(_ graph: borrowing GraphToken) {
        backlog?.release(graph)
        drain(graph)
    }

    /// Queues work that runs in the graph when a slot is free and holds the slot until it calls
    /// ``Item/finish(_:)`` (a download: the slot is held until the loader completes).
    @discardableResult
    func add(
        priority: ImageRequest.Priority, isAdmissionChecked: Bool = false, _ graph: borrowing GraphToken,
        _ work: @escaping Work
    ) -> Item {
        graph.assertIsGraph(of: executor)
        let item = Item(priority: priority, sequence: nextSequence, isAdmissionChecked: isAdmissionChecked, work: work)
        nextSequence += 1
        item.queue = self
        pendingCount += 1
        buckets[priority.rawValue].append((item, item.sequence))
        drain(graph)
        return item
    }

    /// The engine's one primitive for heavy work: when a slot is free, runs `heavy` on a worker
    /// (Dispatch's global queue, `.userInitiated` for every priority: the queues already start
    /// work in priority order), then `then` with its result
    /// back in the graph, on the worker's own thread when the graph is idle (no further hop). The
    /// slot is freed before `then` runs; `then` is not called when the item was cancelled.
    ///
    /// `light`, when given, is tried first on the thread that started the work, right after it
    /// leaves the graph (``PipelineExecutor/performOnThisThreadAfterGraph(_:_:)``): it returns the result
    /// when the work turns out light (a decode of a tiny image), or `nil` to send `heavy` to a
    /// worker after all. A light result saves the two thread wake-ups of a worker round trip.
    @discardableResult
    func run<Output: Sendable>(
        priority: ImageRequest.Priority,
        light: (@Sendable () -> Output?)? = nil,
        _ graph: borrowing GraphToken,
        _ heavy: @escaping @Sendable () -> Output,
        then: @escaping (borrowing GraphToken, Output) -> Void
    ) -> Item {
        runOffGraph(priority: priority, isAdmissionChecked: false, light: light, graph, heavy) { graph, output, _ in
            then(graph, output)
        }
    }

    /// ``run(priority:light:_:_:then:)`` for work that makes a decoded bitmap: it starts only when
    /// the queue's ``backlog`` has room, and `then` receives the ticket it took, for the result to
    /// carry until it is delivered.
    @discardableResult
    func runCountingBacklog<Output: Sendable>(
        priority: ImageRequest.Priority,
        light: (@Sendable () -> Output?)? = nil,
        _ graph: borrowing GraphToken,
        _ heavy: @escaping @Sendable () -> Output,
        then: @escaping (borrowing GraphToken, Output, DecodedImageBacklog.Ticket?) -> Void
    ) -> Item {
        runOffGraph(priority: priority, isAdmissionChecked: true, light: light, graph, heavy, then: then)
    }

    private func runOffGraph<Output: Sendable>(
        priority: ImageRequest.Priority,
        isAdmissionChecked: Bool,
        light: (@Sendable () -> Output?)?,
        _ graph: borrowing GraphToken,
        _ heavy: @escaping @Sendable () -> Output,
        then: @escaping (borrowing GraphToken, Output, DecodedImageBacklog.Ticket?) -> Void
    ) -> Item {
        let run = OffGraphRun(executor: executor, light: light, heavy: heavy, then: then)
        return add(priority: priority, isAdmissionChecked: isAdmissionChecked, graph) { graph, item in
            run.start(item, graph)
        }
    }

    fileprivate func requeue(_ item: Item, _ graph: borrowing GraphToken) {
        item.sequence = nextSequence
        nextSequence += 1
        buckets[item.priority.rawValue].append((item, item.sequence))
        drain(graph)
    }

    /// The next pending item, without taking it.
    private func peekNext() -> Item? {
        for index in stride(from: buckets.count - 1, through: 0, by: -1) {
            while heads[index] < buckets[index].count {
                let entry = buckets[index][heads[index]]
                // Skip entries left behind by a cancel or a priority change.
                if entry.item.state == .pending && entry.item.sequence == entry.sequence
                    && entry.item.priority.rawValue == index
                {
                    return entry.item
                }
                heads[index] += 1
                compact(index)
            }
        }
        return nil
    }

    private func compact(_ index: Int) {
        if heads[index] == buckets[index].count {
            buckets[index].removeAll(keepingCapacity: true)
            heads[index] = 0
        } else if heads[index] > 64 && heads[index] * 2 > buckets[index].count {
            buckets[index].removeFirst(heads[index])
            heads[index] = 0
        }
    }

    #if DEBUG
        /// Entries in the priority buckets, stale ones included (tests, debug builds only: they do
        /// not pile up).
        func bucketEntryCount(_ graph: borrowing GraphToken) -> Int {
            zip(buckets, heads).reduce(0) { $0 + $1.0.count - $1.1 }
        }
    #endif

    /// With nothing pending, every entry left in the buckets is stale (cancelled or moved):
    /// they go at once, so entries never pile up behind an empty queue.
    fileprivate func discardStaleEntriesIfIdle() {
        guard pendingCount == 0 else { return }
        for index in buckets.indices where !buckets[index].isEmpty {
            buckets[index].removeAll(keepingCapacity: true)
            heads[index] = 0
        }
    }

    /// Starts pending items while slots are free (and the admission check allows).
    func drain(_ graph: borrowing GraphToken) {
        var started = false
        defer { if started { heldBack?.drain(graph) } }
        // `pendingCount` first: most calls (a slot freed, a backlog ticket released) find
        // nothing pending, and looking costs a scan of every priority's bucket.
        while pendingCount > 0 && runningCount < maxConcurrentCount, let item = peekNext() {
            if let heldBackBy, heldBackBy.queue.pendingCount >= heldBackBy.limit { return }
            if item.isAdmissionChecked, let backlog {
                guard backlog.hasRoom(graph) else { return }
                item.ticket = backlog.take(returningTo: self, graph)
            }
            started = true
            let index = item.priority.rawValue
            heads[index] += 1
            compact(index)
            pendingCount -= 1
            runningCount += 1
            item.state = .running
            discardStaleEntriesIfIdle()
            let work = item.work
            item.work = nil
            work?(graph, item)
        }
    }
}

/// One piece of work on its way out of the graph and back: the light attempt (after leaving
/// the graph), else the heavy work on a worker, then the continuation in the graph. One object
/// that every hop's closure captures alone, so the hops allocate no closure contexts.
///
/// `@unchecked Sendable`: `then` and `item` are only touched in the graph (the methods that do
/// take its token). `output` is the one field written off the graph, in one place
/// (``handOff(_:)``): the thread that ran the work writes it, then enters the graph with a
/// closure that reads it. The executor's lock, taken to queue or run that closure, orders the
/// write before the read (a release and an acquire of one mutex: ThreadSanitizer sees the edge),
/// and nothing touches `output` between them. ``WorkQueueTests`` runs this hand-off from many
/// threads at once.
private final class OffGraphRun<Output: Sendable>: @unchecked Sendable {
    private let executor: PipelineExecutor
    private let light: (@Sendable () -> Output?)?
    private let heavy: @Sendable () -> Output
    private let then: (borrowing GraphToken, Output, DecodedImageBacklog.Ticket?) -> Void
    private var item: WorkQueue.Item?
    private var output: Output?

    init(
        executor: PipelineExecutor, light: (@Sendable () -> Output?)?, heavy: @escaping @Sendable () -> Output,
        then: @escaping (borrowing GraphToken, Output, DecodedImageBacklog.Ticket?) -> Void
    ) {
        self.executor = executor
        self.light = light
        self.heavy = heavy
        self.then = then
    }

    /// In the graph, when the item got its slot.
    func start(_ item: WorkQueue.Item, _ graph: borrowing GraphToken) {
        self.item = item
        if light != nil {
            executor.performOnThisThreadAfterGraph(graph) { self.runLight() }
        } else {
            runOnWorker()
        }
    }

    private func runLight() {
        guard let output = light?() else { return runOnWorker() }
        handOff(output)
        // This thread's caller is usually about to await this very result: when another
        // thread has entered the graph meanwhile, waiting a moment for it and delivering from
        // here lets the caller find its result, where queuing the delivery for that thread
        // makes the caller suspend and costs a thread wake-up to resume it.
        executor.performWaitingBriefly { graph in self.finish(graph) }
    }

    private func runOnWorker() {
        DispatchQueue.global(qos: .userInitiated).async {
            self.handOff(self.heavy())
            self.executor.perform { graph in self.finish(graph) }
        }
    }

    /// Off the graph, on the thread that ran the work, right before it enters the graph to
    /// ``finish(_:)``: the only write to `output` outside the graph.
    private func handOff(_ output: Output) {
        self.output = output
    }

    /// Back in the graph: frees the slot, then continues unless the item was cancelled.
    private func finish(_ graph: borrowing GraphToken) {
        guard let item, let output else { return }
        self.item = nil
        self.output = nil
        let wasCancelled = item.isCancelled(graph)
        let ticket = item.ticket
        item.finish(graph)
        if !wasCancelled { then(graph, output, ticket) }
    }
}
