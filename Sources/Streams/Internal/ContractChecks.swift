extension Subscribers.Demand {
    /// Checks Combine's contract that a subscription is never asked for `.none`, where Combine's
    /// own subscription for the same publisher or operator checks it: debug builds trap, as
    /// Combine's do; release builds go on, and the request has no effect.
    @inlinable
    func assertNonZero(file: StaticString = #fileID, line: UInt = #line) {
        assert(
            self > 0, "A subscription was asked for no values (.none), which breaks the contract", file: file,
            line: line)
    }
}
