/// A publisher that allows for recording a series of inputs and a completion, for later
/// playback to each subscriber.
///
/// Each subscriber receives the recorded values as it demands them, then the recorded
/// completion.
public struct Record<Output, Failure: Error>: Publisher {
    /// The recorded output and completion.
    public let recording: Recording

    /// Creates a publisher that plays back the recording `record` builds.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Creates a publisher that plays back the given recording.
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Creates a publisher that plays back `output`, then `completion`.
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.recording = Recording(output: output, completion: completion)
    }

    /// Plays the recording to the subscriber: values on demand, then the completion (at once,
    /// with an empty subscription, when there are no values).
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        var iterator = recording.output.makeIterator()
        guard let first = iterator.next() else {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: recording.completion)
            return
        }
        subscriber.receive(
            subscription: SequenceSubscription<S, [Output]>(
                sequence: recording.output,
                first: first,
                iterator: iterator,
                downstream: subscriber,
                completion: recording.completion,
                isRecording: true,
                emit: { $0.emit() }
            )
        )
    }

    /// A recorded sequence of outputs, followed by a completion.
    public struct Recording {
        /// The output recorded so far.
        public private(set) var output: [Output]
        /// The completion (`.finished` until one is recorded).
        public private(set) var completion: Subscribers.Completion<Failure>
        private var isCompleted: Bool

        /// Creates an empty recording (its completion defaults to `.finished`).
        public init() {
            output = []
            completion = .finished
            isCompleted = false
        }

        /// Creates a finished recording of `output` then `completion`.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            self.isCompleted = true
        }

        /// Records an output. Recording after the completion is a programming error (traps).
        public mutating func receive(_ input: Output) {
            precondition(!isCompleted, "Record: a value cannot be recorded after the completion")
            output.append(input)
        }

        /// Records the completion. Recording it twice is a programming error (traps).
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            precondition(!isCompleted, "Record: the completion was already recorded")
            self.completion = completion
            isCompleted = true
        }
    }
}

extension Record: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case recording
    }

    /// Decodes `{"recording": …}` (Combine's shape).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(recording: try container.decode(Recording.self, forKey: .recording))
    }

    /// Encodes `{"recording": …}` (Combine's shape).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recording, forKey: .recording)
    }
}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case output
        case completion
    }

    /// Decodes `{"output": […], "completion": …}`; the recording is complete (recording more
    /// traps).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let output = try container.decode([Output].self, forKey: .output)
        let completion = try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion)
        self.init(output: output, completion: completion)
    }

    /// Encodes `{"output": […], "completion": …}` (Combine's shape).
    public func encode(to encoder: any Encoder) throws {
        try encode(into: encoder)
    }

    /// Encodes the recording into `encoder`, as ``encode(to:)`` does.
    public func encode(into encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }
}
