extension ImageTask {
    /// The task's progressive previews from now on; the sequence ends when the task finishes
    /// (whatever its result: await ``response`` for it). Each access makes a new sequence; one
    /// made after the task finished is empty. Built on ``events``: nothing is set up until it
    /// is accessed.
    public var previews: AsyncStream<ImageResponse> {
        relay(events) { event in
            if case .preview(let response) = event { response } else { nil }
        }
    }

    /// The task's download progress from now on; the sequence ends when the task finishes.
    /// Each access makes a new sequence; one made after the task finished is empty.
    public var progressUpdates: AsyncStream<Progress> {
        relay(events) { event in
            if case .progress(let progress) = event { progress } else { nil }
        }
    }

    /// Relays the elements `pick` selects from `events` until they end (or the consumer stops
    /// listening, which stops the relay).
    private func relay<Element: Sendable>(
        _ events: AsyncStream<Event>,
        _ pick: @escaping @Sendable (Event) -> Element?
    ) -> AsyncStream<Element> {
        AsyncStream { continuation in
            let relay = Task {
                for await event in events {
                    if let element = pick(event) { continuation.yield(element) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }
}
