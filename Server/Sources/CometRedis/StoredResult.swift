/// A processed result as the shared store keeps it: the bytes and what a response needs to
/// serve them again. The same shape as CometServer's, so the server can use this one.
///
/// Thread-safe (a value).
public struct StoredResult: Sendable, Hashable {
    /// The encoded image (or any body).
    public var bytes: [UInt8]
    /// The `Content-Type` to serve it with.
    public var contentType: String
    /// Its entity tag, quoted, as the producing instance made it, so every instance answers the same.
    public var etag: String

    /// A result with these bytes, content type and entity tag.
    public init(bytes: [UInt8], contentType: String, etag: String) {
        self.bytes = bytes
        self.contentType = contentType
        self.etag = etag
    }

    // Redis value layout: "CMT1", UInt16 big-endian content-type length, content type,
    // UInt16 big-endian etag length, etag, then the bytes to the end.
    private static let magic: [UInt8] = Array("CMT1".utf8)

    /// The value stored in Redis.
    func encoded() -> [UInt8] {
        let type = Array(contentType.utf8.prefix(0xFFFF))
        let tag = Array(etag.utf8.prefix(0xFFFF))
        var out = Self.magic
        out.reserveCapacity(8 + type.count + tag.count + bytes.count)
        Self.appendLength(type.count, to: &out)
        out += type
        Self.appendLength(tag.count, to: &out)
        out += tag
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
        guard let tagLength = length(), index + tagLength <= value.count else { return nil }
        let tag = String(decoding: value[index..<index + tagLength], as: UTF8.self)
        index += tagLength
        self.init(bytes: Array(value[index...]), contentType: type, etag: tag)
    }

    private static func appendLength(_ length: Int, to out: inout [UInt8]) {
        out.append(UInt8(length >> 8 & 0xFF))
        out.append(UInt8(length & 0xFF))
    }
}
