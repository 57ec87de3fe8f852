import Foundation

/// Runs asynchronous work on an operation queue, at most `maxConcurrentOperationCount` at once
/// (counted until each work calls `finish`), first come first served.
///
/// Work whose token is cancelled before it starts never runs and takes no slot; cancelling a
/// running work frees its slot at once. Thread-safe.
// Safe: `pending` and `running` are only touched under `lock`; work starts outside it.
public final class OperationQueueScheduler: AsyncScheduler, @unchecked Sendable {
    /// The queue work is started on.
    public let queue: OperationQueue
    private let lock = NSLock()
    private var pending: [Work] = []
    private var running = 0

    private final class Work: @unchecked Sendable {
        // Safe: `closure` and `finished` are read and written under the scheduler's lock only.
        let token: CancellationToken?
        /// Taken out when the work starts (or dropped when it is cancelled first): whatever it
        /// captures must not live as long as the work's cancellation handler.
        var closure: ((@escaping () -> Void) -> Void)?
        let observation = CancellationObservation()
        var finished = false
        init(token: CancellationToken?, closure: @escaping (@escaping () -> Void) -> Void) {
            self.token = token
            self.closure = closure
        }
    }

    /// Creates a scheduler with its own queue, running at most `maxConcurrentOperationCount`
    /// works at once.
    public convenience init(maxConcurrentOperationCount: Int) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = maxConcurrentOperationCount
        self.init(queue: queue)
    }

    /// Creates a scheduler for `queue`; its `maxConcurrentOperationCount` is the limit (no
    /// limit when it is `OperationQueue.defaultMaxConcurrentOperationCount`).
    public init(queue: OperationQueue) {
        self.queue = queue
    }

    /// Queues `closure`; it runs when a slot is free, unless `token` is cancelled by then.
    public func execute(token: CancellationToken?, closure: @escaping (_ finish: @escaping () -> Void) -> Void) {
        guard token?.isCancelling != true else { return }
        let work = Work(token: token, closure: closure)
        lock.locked { pending.append(work) }
        work.observation.attach(to: token) { [weak self] in self?.finish(work) }
        startNext()
    }

    private var limit: Int {
        let count = queue.maxConcurrentOperationCount
        return count <= 0 ? Int.max : count
    }

    private func startNext() {
        let limit = self.limit
        let toStart: [(work: Work, closure: Unchecked<(@escaping () -> Void) -> Void>)] = lock.locked {
            for work in pending where work.token?.isCancelling == true {
                work.finished = true
                work.closure = nil
            }
            pending.removeAll { $0.finished }
            var started: [(Work, Unchecked<(@escaping () -> Void) -> Void>)] = []
            while running < limit, !pending.isEmpty {
                let work = pending.removeFirst()
                running += 1
                if let closure = work.closure { started.append((work, Unchecked(closure))) }
                work.closure = nil
            }
            return started
        }
        for (work, closure) in toStart {
            queue.addOperation { [weak self] in
                guard work.token?.isCancelling != true else {
                    self?.finish(work)
                    return
                }
                closure.value { self?.finish(work) }
            }
        }
    }

    /// Frees the work's slot once (a cancelled pending work just leaves the queue) and drops
    /// its cancellation handler.
    private func finish(_ work: Work) {
        work.observation.end()
        let freed: Bool = lock.locked {
            guard !work.finished else { return false }
            work.finished = true
            work.closure = nil
            if let index = pending.firstIndex(where: { $0 === work }) {
                pending.remove(at: index)
                return false
            }
            running -= 1
            return true
        }
        if freed { startNext() }
    }
}
