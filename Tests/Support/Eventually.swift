import Foundation

/// Waits until `condition` holds, checking it every 5 ms for at most `seconds`; returns whether
/// it held, for the test to assert on (`#expect(await eventually { … })`).
///
/// The condition runs in the caller's isolation (on the main actor for a main-actor test), so it
/// may read state that lives there. It is for work the test cannot observe otherwise: where the
/// test controls the work (a test loader, a recorder it owns), wait on that instead.
public func eventually(
    within seconds: Double = 15,
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
