import Foundation

/// Shares one load between equivalent requests (equal ``Request/loadKey(for:)``).
///
/// Every caller of an in-flight key gets the same promise. The shared load is cancelled when
/// every caller that passed a token has cancelled it (a caller without a token keeps it alive);
/// a caller that cancelled while others keep the load alive still gets the shared callbacks.
/// A key is forgotten once its load resolves or is cancelled. Thread-safe.
// Loads start and cancel outside the lock.
public final class Deduplicator: Loading, Sendable {
    private final class SharedLoad: Sendable {
        let promise: Promise<Image>
        let resolve: Unchecked<(fulfill: (Image) -> Void, reject: (Error) -> Void)>
        let source = CancellationTokenSource()
        init() {
            var resolvers: ((Image) -> Void, (Error) -> Void)?
            promise = Promise { resolvers = ($0, $1) }
            resolve = Unchecked(resolvers!)
        }
    }

    /// An in-flight load: how many callers still want it, and their cancellation handlers,
    /// withdrawn once it resolves.
    private struct Flight {
        let load: SharedLoad
        var callers = 1
        var observations: [CancellationObservation] = []
    }

    // Nuke 4's protocol is not Sendable: the loader is used as Nuke 4 used it, from any thread.
    private let loader: Unchecked<Loading>
    private let flights = LockedValue<[AnyHashable: Flight]>([:])
    private let queue = DispatchQueue(label: "com.comet.NukeCompat.Deduplicator")

    /// Creates a deduplicator in front of `loader`.
    public init(loader: Loading) {
        self.loader = Unchecked(loader)
    }

    /// The shared promise for `request`'s load key, starting the load if none is in flight.
    /// Without a `token` (the default) this caller keeps the shared load alive.
    public func loadImage(with request: Request, token: CancellationToken? = nil) -> Promise<Image> {
        let key = Request.loadKey(for: request)
        let observation = CancellationObservation()
        let (task, isNew): (SharedLoad, Bool) = flights.withLock { flights in
            if flights[key] != nil {
                flights[key]!.callers += 1
                flights[key]!.observations.append(observation)
                return (flights[key]!.load, false)
            }
            let task = SharedLoad()
            flights[key] = Flight(load: task, observations: [observation])
            return (task, true)
        }
        if isNew {
            loader.value.loadImage(with: request, token: task.source.token).completion(on: queue) { resolution in
                self.forget(task, key: key).forEach { $0.end() }
                switch resolution {
                case .fulfilled(let image): task.resolve.value.fulfill(image)
                case .rejected(let error): task.resolve.value.reject(error)
                }
            }
        }
        observation.attach(to: token) { [weak self] in self?.cancel(task, key: key) }
        return task.promise
    }

    /// One caller cancelled: the load is cancelled when it was the last (a load that resolved
    /// meanwhile is forgotten already, and cancelling it would change nothing).
    private func cancel(_ task: SharedLoad, key: AnyHashable) {
        let isLast: Bool = flights.withLock { flights in
            guard flights[key]?.load === task else { return false }
            flights[key]!.callers -= 1
            guard flights[key]!.callers == 0 else { return false }
            // Every caller cancelled: their handlers have run, none is left to withdraw.
            flights[key] = nil
            return true
        }
        if isLast { task.source.cancel() }
    }

    /// Forgets the resolved load; returns its callers' cancellation handlers to withdraw.
    private func forget(_ task: SharedLoad, key: AnyHashable) -> [CancellationObservation] {
        flights.withLock { flights in
            guard flights[key]?.load === task else { return [] }
            defer { flights[key] = nil }
            return flights[key]!.observations
        }
    }
}
