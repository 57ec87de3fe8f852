import Foundation

/// A service URL's path, split and decoded: `/{signature}/{options}/{base64url(source)}[.{ext}]`.
///
/// The signature covers everything after it (``signedPart``), so the options, the source and
/// the extension are all signed. Read over the segments' UTF-8 bytes. Thread-safe (a value).
public struct ThumbnailPath: Sendable, Hashable {
    /// The signature segment as written (base64url of an HMAC-SHA256, or anything when signing
    /// is off).
    public var signature: String
    /// The options segment as written.
    public var optionsSegment: String
    /// The source segment as written (base64url, without the extension).
    public var sourceSegment: String
    /// The extension after the source, lowercased, if any.
    public var fileExtension: String?
    /// The decoded source URL's canonical spelling (``CanonicalURL``): what is checked, keyed
    /// and fetched.
    public var canonicalSource: String

    /// The decoded source URL, in its canonical form (``canonicalSource`` as a `URL`).
    public var source: URL {
        // Every canonical spelling is a URL Foundation parses as it is (CanonicalURLTests).
        URL(string: canonicalSource)!
    }

    /// The part of the path the signature covers: `/{options}/{source}[.{ext}]`.
    public var signedPart: String {
        var part = "/"
        part.reserveCapacity(optionsSegment.utf8.count + sourceSegment.utf8.count + 8)
        part += optionsSegment
        part += "/"
        part += sourceSegment
        if let fileExtension {
            part += "."
            part += fileExtension
        }
        return part
    }

    /// Parses the three segments. Throws ``ServiceError`` (400) when the source is not base64url
    /// of an absolute http(s) URL that can be made canonical, or the extension is not a known
    /// format.
    public init(signature: String, options: String, source segment: String) throws(ServiceError) {
        self.signature = signature
        self.optionsSegment = options
        var segment = segment
        let parts = segment.withUTF8 { bytes in
            Result { () throws(ServiceError) in try Self.parts(of: bytes) }
        }
        let (encoded, fileExtension, canonical) = try parts.get()
        self.sourceSegment = encoded ?? segment
        self.fileExtension = fileExtension
        self.canonicalSource = canonical
    }

    /// The source segment's base64url part (`nil` when it is the whole segment), its lower-cased
    /// extension and the decoded source's canonical spelling.
    private static func parts(
        of segment: UnsafeBufferPointer<UInt8>
    ) throws(ServiceError) -> (String?, String?, String) {
        var encoded = segment[...]
        var fileExtension: String?
        if let dot = segment.lastIndex(of: UInt8(ascii: ".")) {
            encoded = segment[..<dot]
            let name = String(decoding: segment[(dot + 1)...].lazy.map(ASCII.lowercased), as: UTF8.self)
            guard OutputFormat(name: name) != nil else {
                throw .badURL("unknown extension \".\(name)\" (jpg, jpeg, png, webp, avif, gif)")
            }
            fileExtension = name
        }
        let encodedBytes = UnsafeBufferPointer(rebasing: encoded)
        // Decoded into scratch space (on the stack for any usual URL), read once by the canonicaliser.
        let canonical = try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: encodedBytes.count * 3 / 4 + 1) {
            scratch in
            Result { () throws(ServiceError) in
                guard let count = Base64URL.decode(bytes: encodedBytes, into: scratch),
                    case let bytes = UnsafeBufferPointer(rebasing: scratch[..<count]),
                    !bytes.contains(where: { $0 >= 0x80 }) || String(validating: bytes, as: UTF8.self) != nil
                else {
                    throw .badURL("the source segment is not base64url of an absolute http or https URL")
                }
                return try CanonicalURL.canonicalString(bytes)
            }
        }.get()
        return (fileExtension == nil ? nil : String(decoding: encoded, as: UTF8.self), fileExtension, canonical)
    }

    /// The path for `options` and `source`, signed by `signer` (`"unsigned"` in place of the
    /// signature when `signer` is `nil`).
    public static func make(options: String, source: URL, fileExtension: String? = nil, signer: URLSigner?) -> String {
        let signed =
            "/\(options)/\(Base64URL.encode(Array(source.absoluteString.utf8)))"
            + (fileExtension.map { ".\($0)" } ?? "")
        return "/\(signer?.signature(for: signed) ?? "unsigned")\(signed)"
    }
}
