import Foundation

/// Loads images ahead of need (into the loader's memory cache), a few at a time.
///
/// Requests whose load key is already preheating are skipped. Each request's load holds a slot
/// of the scheduler (two at once by default) until it completes or is stopped. A preheater that
/// is released stops whatever it was still preheating. Thread-safe.
// Loads start and cancel outside the lock.
public final class Preheater: Sendable {
    private final class Preheat: Sendable {
        let request: Unchecked<Request>
        let source = CancellationTokenSource()
        init(_ request: Request) { self.request = Unchecked(request) }
    }

    // Nuke 4's protocols are not Sendable: the loader and the scheduler are used as Nuke 4
    // used them, from any thread.
    private let loader: Unchecked<Loading>
    private let scheduler: Unchecked<AsyncScheduler>
    private let tasks = LockedValue<[AnyHashable: Preheat]>([:])
    private let queue = DispatchQueue(label: "com.comet.NukeCompat.Preheater")

    /// Creates a preheater. Defaults: `Loader.shared`, at most two loads at once.
    public init(
        loader: Loading = Loader.shared,
        scheduler: AsyncScheduler = OperationQueueScheduler(maxConcurrentOperationCount: 2)
    ) {
        self.loader = Unchecked(loader)
        self.scheduler = Unchecked(scheduler)
    }

    deinit {
        stopPreheating()
    }

    /// Starts preheating `requests` (those not already preheating).
    public func startPreheating(with requests: [Request]) {
        let started: [(AnyHashable, Preheat)] = tasks.withLock { tasks in
            var started: [(AnyHashable, Preheat)] = []
            for request in requests {
                let key = Request.loadKey(for: request)
                guard tasks[key] == nil else { continue }
                let task = Preheat(request)
                tasks[key] = task
                started.append((key, task))
            }
            return started
        }
        for (key, task) in started { schedule(task, key: key) }
    }

    /// The spelling of Nuke 4.0's guide: same as ``startPreheating(with:)``.
    public func startPreheating(for requests: [Request]) {
        startPreheating(with: requests)
    }

    /// Stops preheating `requests` (matched by load key), cancelling their loads.
    public func stopPreheating(with requests: [Request]) {
        let stopped: [Preheat] = tasks.withLock { tasks in
            requests.compactMap { tasks.removeValue(forKey: Request.loadKey(for: $0)) }
        }
        stopped.forEach { $0.source.cancel() }
    }

    /// The spelling of Nuke 4.0's guide: same as ``stopPreheating(with:)``.
    public func stopPreheating(for requests: [Request]) {
        stopPreheating(with: requests)
    }

    /// Stops all preheating.
    public func stopPreheating() {
        let stopped: [Preheat] = tasks.withLock { tasks in
            defer { tasks.removeAll() }
            return Array(tasks.values)
        }
        stopped.forEach { $0.source.cancel() }
    }

    private func forget(_ task: Preheat, key: AnyHashable) {
        tasks.withLock { tasks in if tasks[key] === task { tasks[key] = nil } }
    }

    private func schedule(_ task: Preheat, key: AnyHashable) {
        let token = task.source.token
        scheduler.value.execute(token: token) { [weak self] finish in
            guard let self else { return finish() }
            // A stopped load may still complete (rejected as cancelled): the scheduler hears once.
            let finishOnce = FinishOnce(finish)
            let observation = CancellationObservation()
            self.loader.value.loadImage(with: task.request.value, token: token).completion(on: self.queue) {
                [weak self] _ in
                self?.forget(task, key: key)
                observation.end()
                finishOnce.call()
            }
            observation.attach(to: token, finishOnce.call)
        }
    }
}

/// Calls an AsyncScheduler's `finish` at most once, whichever of completion and stop comes first.
// `finish` is taken out under the lock, then called outside it, once.
private final class FinishOnce: Sendable {
    private let finish: LockedValue<(() -> Void)?>

    init(_ finish: @escaping () -> Void) { self.finish = LockedValue(finish) }

    func call() {
        let finish: (() -> Void)? = self.finish.withLock { finish in
            defer { finish = nil }
            return finish
        }
        finish?()
    }
}
