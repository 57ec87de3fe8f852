/// The locked state of an operator that takes one upstream subscription for one downstream.
protocol UpstreamHolding {
    associatedtype Downstream
    var upstream: Subscription? { get set }
    var downstream: Downstream? { get }
}

extension UpstreamHolding {
    /// Takes `subscription` as the upstream (call under the state's lock): returns the
    /// downstream to hand the operator to, or `nil`, and whether `subscription` is a second one,
    /// which the caller cancels outside the lock. One that arrives after the downstream
    /// cancelled is left alone (neither asked for values nor cancelled), as Combine does.
    mutating func admit(_ subscription: Subscription) -> (downstream: Downstream?, isDuplicate: Bool) {
        guard let downstream else { return (nil, false) }
        guard upstream == nil else { return (nil, true) }
        upstream = subscription
        return (downstream, false)
    }
}
