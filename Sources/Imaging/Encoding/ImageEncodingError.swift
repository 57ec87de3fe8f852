/// Why an image could not be encoded (the codec library's message).
public struct ImageEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The format that was being written.
    public let type: AssetType
    /// The codec's message.
    public let reason: String

    public init(type: AssetType, reason: String) {
        self.type = type
        self.reason = reason
    }

    public var description: String { "Could not encode \(type): \(reason)." }
}
