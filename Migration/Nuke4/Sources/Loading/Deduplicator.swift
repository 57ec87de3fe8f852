import Foundation

/// Shares one load between equivalent requests (equal ``Request/loadKey(for:)``).
///
/// Every caller of an in-flight key gets the same promise. The shared load is cancelled when
/// every caller that passed a token has cancelled it (a caller without a token keeps it alive);
/// a caller that cancelled while others keep the load alive still gets the shared callbacks.
/// A key is forgotten once its load resolves or is cancelled. Thread-safe.
// Safe: `tasks` is only touched under `lock`; loads start and cancel outside it.
public final class Deduplicator: Loading, @unchecked Sendable {
    private final class SharedLoad {
        // `callers` and `observations` are mutated under the deduplicator's lock only; the rest
        // is immutable.
        let promise: Promise<Image>
        let resolve: Unchecked<(fulfill: (Image) -> Void, reject: (Error) -> Void)>
        let source = CancellationTokenSource()
        var callers = 1
        /// The callers' cancellation handlers, withdrawn once the load resolves.
        var observations: [CancellationObservation] = []
        init() {
            var resolvers: ((Image) -> Void, (Error) -> Void)?
            promise = Promise { resolvers = ($0, $1) }
            resolve = Unchecked(resolvers!)
        }
    }

    private let loader: Loading
    private let lock = NSLock()
    private var tasks: [AnyHashable: SharedLoad] = [:]
    private let queue = DispatchQueue(label: "com.comet.NukeCompat.Deduplicator")

    /// Creates a deduplicator in front of `loader`.
    public init(loader: Loading) {
        self.loader = loader
    }

    /// The shared promise for `request`'s load key, starting the load if none is in flight.
    /// Without a `token` (the default) this caller keeps the shared load alive.
    public func loadImage(with request: Request, token: CancellationToken? = nil) -> Promise<Image> {
        let key = Request.loadKey(for: request)
        let observation = CancellationObservation()
        let (task, isNew): (SharedLoad, Bool) = lock.locked {
            let existing = tasks[key]
            let task = existing ?? SharedLoad()
            if existing == nil {
                tasks[key] = task
            } else {
                task.callers += 1
            }
            task.observations.append(observation)
            return (task, existing == nil)
        }
        if isNew {
            let shared = Unchecked(task)
            loader.loadImage(with: request, token: task.source.token).completion(on: queue) { resolution in
                self.forget(shared.value, key: key).forEach { $0.end() }
                switch resolution {
                case .fulfilled(let image): shared.value.resolve.value.fulfill(image)
                case .rejected(let error): shared.value.resolve.value.reject(error)
                }
            }
        }
        observation.attach(to: token) { [weak self] in self?.cancel(task, key: key) }
        return task.promise
    }

    private func cancel(_ task: SharedLoad, key: AnyHashable) {
        let isLast: Bool = lock.locked {
            task.callers -= 1
            guard task.callers == 0 else { return false }
            if tasks[key] === task { tasks[key] = nil }
            return true
        }
        if isLast { task.source.cancel() }
    }

    /// Forgets the resolved load; returns its callers' cancellation handlers to withdraw.
    private func forget(_ task: SharedLoad, key: AnyHashable) -> [CancellationObservation] {
        lock.locked {
            if tasks[key] === task { tasks[key] = nil }
            defer { task.observations = [] }
            return task.observations
        }
    }
}
