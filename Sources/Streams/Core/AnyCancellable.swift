import Synchronization

/// A type-erasing cancellable object that executes a provided closure when cancelled.
///
/// An `AnyCancellable` automatically calls ``cancel()`` when deinitialised, so keeping it alive
/// keeps a subscription alive. The closure runs at most once. Equality and hashing are by
/// identity. Thread-safety: `cancel()` may be called from any thread; an atomic flag decides
/// which call runs the closure (that thread alone then takes it out), and it runs outside any
/// lock. (Dynamic exclusivity checks are off on the two stored actions because the flag, not a
/// Swift access, guarantees exclusivity.)
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    private let isCancelled = Atomic<Bool>(false)
    @exclusivity(unchecked) private var action: (() -> Void)?  // owned by whoever sets `isCancelled`
    /// A wrapped cancellable is kept as is (no closure allocated around it).
    @exclusivity(unchecked) private var canceller: (any Cancellable)?  // same

    /// Creates a cancellable object that runs the given closure on cancellation or deinit.
    public init(_ cancel: @escaping () -> Void) {
        action = cancel
    }

    /// Creates a cancellable object that forwards cancellation to the given cancellable.
    public init<C: Cancellable>(_ canceller: C) {
        self.canceller = canceller
    }

    deinit {
        cancel()
    }

    /// Cancels the activity. Runs the closure the first time; later calls do nothing.
    public func cancel() {
        guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let body = action
        let canceller = self.canceller
        action = nil
        self.canceller = nil
        body?()
        canceller?.cancel()
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
