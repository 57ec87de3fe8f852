import DequeModule
import Foundation
import Glibc

/// A fixed set of dedicated threads, each owning one ``RedisConnection``, fed from one bounded
/// FIFO queue. hiredis's synchronous calls block; they run here so they never hold one of Swift
/// concurrency's cooperative threads.
///
/// Thread-safe: `submit` and `shutdown` may be called from any thread.
final class RedisWorkerPool: @unchecked Sendable {
    // @unchecked Sendable: its mutable fields are guarded by `condition` (an NSCondition).
    /// A unit of work, run on a worker thread with that thread's connection.
    typealias Job = @Sendable (RedisConnection) -> Void

    // Guards `jobs`, `running` and `stopping`.
    private let condition = NSCondition()
    private var jobs: Deque<Job> = []
    private var running = 0
    private var stopping = false
    private let maxQueued: Int
    private let workerCount: Int

    /// Starts `configuration.poolSize` threads; connections open on their first command.
    init(configuration: RedisConfiguration, name: String) {
        maxQueued = configuration.maxQueuedCommands
        workerCount = configuration.poolSize
        for index in 0..<configuration.poolSize {
            let thread = Thread { [self] in
                // hiredis writes with write(2): a peer that closed would raise SIGPIPE and end
                // the process. Blocked on this thread only, write(2) fails with EPIPE instead.
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &set, nil)
                run(connection: RedisConnection(configuration: configuration))
            }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    /// Queues `job`; returns false (without running it) when the queue is full or the pool shut
    /// down.
    func submit(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        // Room for one job per connection plus the queue: queued and running jobs count alike.
        guard !stopping, jobs.count + running < maxQueued + workerCount else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// Stops the threads after the queued jobs ran, and closes their connections. Does not wait.
    func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func run(connection: RedisConnection) {
        while let job = next() {
            job(connection)
            condition.lock()
            running -= 1
            condition.unlock()
        }
        connection.disconnect()
    }

    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty {
            if stopping { return nil }
            condition.wait()
        }
        running += 1
        return jobs.removeFirst()
    }
}
