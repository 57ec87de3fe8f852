import Locking
import Synchronization

/// A type-erasing cancellable object that executes a provided closure when cancelled.
///
/// An `AnyCancellable` automatically calls ``cancel()`` when deinitialised, so keeping it alive
/// keeps a subscription alive. The closure runs at most once. Equality and hashing are by
/// identity. Thread-safety: `cancel()` may be called from any thread; the closure is taken out
/// under a lock and run outside it.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    private let action: Locked<(() -> Void)?>

    /// Creates a cancellable object that runs the given closure on cancellation or deinit.
    public init(_ cancel: @escaping () -> Void) {
        action = Locked(cancel)
    }

    /// Creates a cancellable object that forwards cancellation to the given cancellable.
    public init<C: Cancellable>(_ canceller: C) {
        action = Locked({ canceller.cancel() })
    }

    deinit {
        cancel()
    }

    /// Cancels the activity. Runs the closure the first time; later calls do nothing.
    public func cancel() {
        let body = action.withLock { state -> (() -> Void)? in
            let body = state
            state = nil
            return body
        }
        body?()
    }

    /// Stores this instance in the specified collection.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Stores this instance in the specified set.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    /// Two type-erased cancellables are equal when they are the same instance.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
