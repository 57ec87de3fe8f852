import Foundation

/// Waits until `condition` holds, checking it every 5 ms; returns whether it held, for the test
/// to assert on (`#expect(await eventually { … })`).
///
/// The bound (`seconds`, 120 by default) is a hang guard, not a budget: a wait that holds returns
/// as soon as it does, so only a test that would fail anyway waits that long. A loaded machine
/// that is several times slower never reaches it (#57). A test that checks something does *not*
/// happen passes a short bound and expects `false`.
///
/// The condition runs in the caller's isolation (on the main actor for a main-actor test), so it
/// may read state that lives there. It is for work the test cannot observe otherwise: where the
/// test controls the work (a test loader, a recorder it owns), wait on that instead.
public func eventually(
    within seconds: Double = 120,
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return try condition()
}
