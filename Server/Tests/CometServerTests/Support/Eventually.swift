/// Polls `condition` every 20 ms until it holds or `seconds` have passed; whether it held. The
/// default bound is a hang guard (#57): a loaded machine never reaches it on a wait that holds.
func eventually(within seconds: Double = 120, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
