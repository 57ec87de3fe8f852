/// A stateless subscriber that hands the upstream subscription straight to the downstream and
/// adapts values and completions with closures. Used by simple operators (compactMap, mapError,
/// setFailureType, removeDuplicates); it is exactly as thread-safe as its upstream, since it
/// adds no state of its own (closures that keep state rely on the upstream's serialised calls).
struct PassThrough<UpstreamInput, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    typealias Input = UpstreamInput
    typealias Failure = UpstreamFailure

    let downstream: Downstream
    let name: String
    let value: (UpstreamInput, Downstream) -> Subscribers.Demand
    let completion: (Subscribers.Completion<UpstreamFailure>) -> Subscribers.Completion<Downstream.Failure>
    let combineIdentifier = CombineIdentifier()

    var description: String { name }

    func receive(subscription: Subscription) {
        downstream.receive(subscription: subscription)
    }

    func receive(_ input: UpstreamInput) -> Subscribers.Demand {
        value(input, downstream)
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        downstream.receive(completion: self.completion(completion))
    }
}
