import Synchronization

/// A `Mutex` holding state that is not `Sendable` (downstream subscribers, values, closures).
///
/// `Mutex` demands `sending` state and results, which non-`Sendable` generic state cannot
/// prove. Every owner of a `Locked` is a class documented `@unchecked Sendable`: the state is
/// only read or written inside ``withLock(_:)``, and values taken out of it are handed to a
/// single thread (the lock is never held while calling other code). That invariant, not the
/// type system, is what makes the unchecked wrapper below sound.
@usableFromInline
struct Locked<State>: ~Copyable, @unchecked Sendable {
    @usableFromInline
    struct Unchecked<T>: @unchecked Sendable {
        @usableFromInline var value: T
        @inlinable init(_ value: T) { self.value = value }
    }

    @usableFromInline let mutex: Mutex<Unchecked<State>>

    @inlinable
    init(_ state: State) {
        mutex = Mutex(Unchecked(state))
    }

    /// Runs `body` with exclusive access to the state. Never call out to other components
    /// (subscribers, subscriptions, user closures) from inside `body`.
    @inlinable
    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        mutex.withLock { box -> Unchecked<Result> in
            Unchecked(body(&box.value))
        }.value
    }
}
