extension Subscribers {
    /// A signal that a publisher doesn't produce additional elements, either due to normal
    /// completion or an error.
    @frozen
    public enum Completion<Failure: Error> {
        /// The publisher finished normally.
        case finished
        /// The publisher stopped publishing due to the indicated error.
        case failure(Failure)
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable where Failure: Sendable {}

extension Subscribers.Completion {
    /// Maps the failure, keeping `.finished` as is.
    @inlinable
    func mapFailure<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> Subscribers.Completion<NewFailure> {
        switch self {
        case .finished: return .finished
        case .failure(let error): return .failure(transform(error))
        }
    }
}

extension Subscribers.Completion where Failure == Never {
    /// Re-types a completion that cannot be a failure.
    @inlinable
    func promoted<NewFailure: Error>(to type: NewFailure.Type = NewFailure.self) -> Subscribers.Completion<NewFailure> {
        .finished
    }
}

extension Subscribers.Completion: Codable where Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case success
        case error
    }

    /// Decodes `{"success": true}` or `{"success": false, "error": …}` (Combine's shape).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decode(Bool.self, forKey: .success) {
            self = .finished
        } else {
            self = .failure(try container.decode(Failure.self, forKey: .error))
        }
    }

    /// Encodes `{"success": true}` or `{"success": false, "error": …}` (Combine's shape).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .finished:
            try container.encode(true, forKey: .success)
        case .failure(let error):
            try container.encode(false, forKey: .success)
            try container.encode(error, forKey: .error)
        }
    }
}
