import Foundation

/// Loads images into targets: one load per target at a time, results only to the target that
/// still wants them.
///
/// - Loading into a target first cancels whatever load the target had.
/// - A memory-cache hit (when the request allows reads) calls the handler **synchronously** with
///   `(.fulfilled(image), true)`.
/// - Otherwise the handler is called on ``Nuke/callbackQueue`` with `(response, false)`, only if
///   the target is still alive and still bound to this load.
/// - ``cancelRequest(for:)`` cancels the target's load; its handler never runs. A target that is
///   deallocated has its load cancelled too (within a quarter of a second: Linux has no
///   associated objects, so bindings sit in a side table of weak references that is swept).
///
/// Nuke 4 required the main thread; this manager is thread-safe.
// Safe: `bindings` and `isSweepScheduled` are only touched under `lock`; loads, handlers and
// cancellation run outside it.
public final class Manager: @unchecked Sendable {
    /// Called with the outcome of a load and whether it came from the memory cache.
    public typealias Handler = (Response, _ isFromMemoryCache: Bool) -> Void

    /// Loads the images.
    public let loader: Loading
    /// The memory cache read before loading, or `nil`.
    public let cache: Caching?

    private final class Binding {
        weak var target: AnyObject?
        let source = CancellationTokenSource()
        init(target: AnyObject) { self.target = target }
    }

    private let lock = NSLock()
    private var bindings: [ObjectIdentifier: Binding] = [:]
    private var isSweepScheduled = false
    private let sweepQueue = DispatchQueue(label: "com.comet.NukeCompat.Manager")

    /// Creates a manager. `cache` should be the one `loader` writes to, so hits are found.
    public init(loader: Loading, cache: Caching? = nil) {
        self.loader = loader
        self.cache = cache
    }

    /// Loads `request` into `target`, calling its ``Target/handle(response:isFromMemoryCache:)``.
    public func loadImage(with request: Request, into target: Target) {
        loadImage(with: request, into: target as AnyObject) { [weak target] response, isFromMemoryCache in
            target?.handle(response: response, isFromMemoryCache: isFromMemoryCache)
        }
    }

    /// Loads `url` into `target`.
    public func loadImage(with url: URL, into target: Target) {
        loadImage(with: Request(url: url), into: target)
    }

    /// Loads `url` for `target`, calling `handler` with the outcome.
    public func loadImage(with url: URL, into target: AnyObject, handler: @escaping Handler) {
        loadImage(with: Request(url: url), into: target, handler: handler)
    }

    /// Loads `request` for `target`, calling `handler` with the outcome (see the type's
    /// documentation for when and where).
    public func loadImage(with request: Request, into target: AnyObject, handler: @escaping Handler) {
        cancelRequest(for: target)
        if request.memoryCacheOptions.readAllowed, let image = cache?[request] {
            handler(.fulfilled(image), true)
            return
        }
        let id = ObjectIdentifier(target)
        let binding = Binding(target: target)
        lock.locked { bindings[id] = binding }
        scheduleSweep()
        let bound = Unchecked(binding)
        loader.loadImage(with: request, token: binding.source.token).completion { [weak self] resolution in
            guard let self, bound.value.target != nil else { return }
            let isCurrent: Bool = self.lock.locked {
                guard self.bindings[id] === bound.value else { return false }
                self.bindings[id] = nil
                return true
            }
            if isCurrent { handler(resolution, false) }
        }
    }

    /// Cancels the load bound to `target`, if any; its handler never runs.
    public func cancelRequest(for target: AnyObject) {
        let binding = lock.locked { bindings.removeValue(forKey: ObjectIdentifier(target)) }
        binding?.source.cancel()
    }

    private static let sharedManager = LockedValue(Manager(loader: Loader.shared, cache: Cache.shared))

    /// The manager behind the free functions: `Loader.shared` and `Cache.shared`. Settable;
    /// thread-safe.
    public static var shared: Manager {
        get { sharedManager.current }
        set { sharedManager.current = newValue }
    }

    // MARK: Released targets

    private func scheduleSweep() {
        let schedule: Bool = lock.locked {
            guard !isSweepScheduled, !bindings.isEmpty else { return false }
            isSweepScheduled = true
            return true
        }
        guard schedule else { return }
        sweepQueue.asyncAfter(deadline: .now() + .milliseconds(250)) { [weak self] in self?.sweep() }
    }

    /// Cancels the loads of deallocated targets.
    private func sweep() {
        let released: [Binding] = lock.locked {
            isSweepScheduled = false
            let released = bindings.filter { $0.value.target == nil }
            for id in released.keys { bindings[id] = nil }
            return Array(released.values)
        }
        released.forEach { $0.source.cancel() }
        scheduleSweep()
    }
}
