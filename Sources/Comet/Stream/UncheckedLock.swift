import Synchronization

/// A `Mutex` over state that is not `Sendable` (subscribers, weak targets, closures).
///
/// Owners are classes documented `@unchecked Sendable`: the state is only touched inside
/// ``withLock(_:)``, and nothing outside the owner (subscribers, targets, user closures) is ever
/// called from inside `body`.
struct UncheckedLock<State>: ~Copyable, @unchecked Sendable {
    struct Box: @unchecked Sendable {
        var value: State
    }

    struct ResultBox<T>: @unchecked Sendable {
        var value: T
    }

    private let mutex: Mutex<Box>

    init(_ state: State) {
        mutex = Mutex(Box(value: state))
    }

    /// Runs `body` with exclusive access to the state; never call out from inside it.
    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        mutex.withLock { box -> ResultBox<Result> in
            ResultBox(value: body(&box.value))
        }.value
    }
}
