/// A processed result as the shared store keeps it: the bytes and what a response needs to
/// serve them again.
public struct StoredResult: Sendable, Equatable {
    /// The encoded image (or any body).
    public var bytes: [UInt8]
    /// The `Content-Type` to serve it with.
    public var contentType: String
    /// The entity tag the producing instance gave it, if any, so every instance answers the same.
    public var etag: String?

    /// A result with these bytes, content type and (optional) entity tag.
    public init(bytes: [UInt8], contentType: String, etag: String? = nil) {
        self.bytes = bytes
        self.contentType = contentType
        self.etag = etag
    }

    // Redis value layout: "CMT1", UInt16 big-endian content-type length, content type,
    // UInt16 big-endian etag length (0xFFFF: none), etag, then the bytes to the end.
    private static let magic: [UInt8] = Array("CMT1".utf8)
    private static let noTag: Int = 0xFFFF

    /// The value stored in Redis.
    func encoded() -> [UInt8] {
        let type = Array(contentType.utf8.prefix(0xFFFE))
        let tag = etag.map { Array($0.utf8.prefix(0xFFFE)) }
        var out = Self.magic
        out.reserveCapacity(8 + type.count + (tag?.count ?? 0) + bytes.count)
        Self.appendLength(type.count, to: &out)
        out += type
        Self.appendLength(tag?.count ?? Self.noTag, to: &out)
        if let tag { out += tag }
        out += bytes
        return out
    }

    /// The result a Redis value holds, or nil if it is not one (another writer, a newer layout).
    init?(encoded value: [UInt8]) {
        guard value.count >= 8, value.starts(with: Self.magic) else { return nil }
        var index = 4
        func length() -> Int? {
            guard index + 2 <= value.count else { return nil }
            defer { index += 2 }
            return Int(value[index]) << 8 | Int(value[index + 1])
        }
        guard let typeLength = length(), index + typeLength <= value.count else { return nil }
        let type = String(decoding: value[index..<index + typeLength], as: UTF8.self)
        index += typeLength
        guard let tagLength = length() else { return nil }
        var tag: String?
        if tagLength != Self.noTag {
            guard index + tagLength <= value.count else { return nil }
            tag = String(decoding: value[index..<index + tagLength], as: UTF8.self)
            index += tagLength
        }
        self.init(bytes: Array(value[index...]), contentType: type, etag: tag)
    }

    private static func appendLength(_ length: Int, to out: inout [UInt8]) {
        out.append(UInt8(length >> 8 & 0xFF))
        out.append(UInt8(length & 0xFF))
    }
}
