/// A type that defines methods for encoding a value into a top-level representation (JSON
/// `Data`, for instance). `StreamsFoundation` makes `JSONEncoder` and `PropertyListEncoder`
/// conform.
public protocol TopLevelEncoder {
    /// The type this encoder produces.
    associatedtype Output
    /// Encodes an instance of the indicated type.
    func encode<T: Encodable>(_ value: T) throws -> Output
}

/// A type that defines methods for decoding a value from a top-level representation.
/// `StreamsFoundation` makes `JSONDecoder` and `PropertyListDecoder` conform.
public protocol TopLevelDecoder {
    /// The type this decoder reads from.
    associatedtype Input
    /// Decodes an instance of the indicated type.
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

extension Publishers {
    /// A publisher that encodes every upstream value with a ``TopLevelEncoder``.
    ///
    /// An encoding error cancels the upstream and fails the stream (as `tryMap`).
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        /// The encoder's output.
        public typealias Output = Coder.Output
        /// The upstream's failure or the encoding error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        private let encoder: Coder

        /// Creates an encoding publisher.
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        /// Subscribes an encoding subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let encoder = self.encoder
            upstream.subscribeStepping(
                subscriber, name: "Encode", early: [.forwardValues, .forwardCompletion], reflect: codingMirror,
                mapFailure: { $0 }
            ) { input in
                tryStep { .emit(try encoder.encode(input)) }
            }
        }
    }

    /// A publisher that decodes every upstream value with a ``TopLevelDecoder``.
    ///
    /// A decoding error cancels the upstream and fails the stream (as `tryMap`).
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        /// The upstream's failure or the decoding error.
        public typealias Failure = Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        private let decoder: Coder

        /// Creates a decoding publisher.
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        /// Subscribes a decoding subscriber to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let decoder = self.decoder
            upstream.subscribeStepping(
                subscriber, name: "Decode", early: [.forwardValues, .forwardCompletion], reflect: codingMirror,
                mapFailure: { $0 }
            ) { input in
                tryStep { .emit(try decoder.decode(Output.self, from: input)) }
            }
        }
    }
}

extension Publisher where Output: Encodable {
    /// Encodes the output from upstream using a specified encoder.
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

extension Publisher {
    /// Decodes the output from the upstream using a specified decoder.
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(type: Item.Type, decoder: Coder)
        -> Publishers.Decode<Self, Item, Coder>
    where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}

/// Combine's view of an encoding or decoding subscription: the downstream, whether the stream
/// has ended, and the upstream while it is live.
private func codingMirror<Downstream>(_ downstream: Downstream?) -> [Mirror.Child] {
    [
        downstreamChild(downstream), ("finished", downstream == nil),
        ("upstreamSubscription", downstream == nil ? "nil" : "live"),
    ]
}
