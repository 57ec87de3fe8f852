import Foundation

/// A service URL's path, split and decoded: `/{signature}/{options}/{base64url(source)}[.{ext}]`.
///
/// The signature covers everything after it (``signedPart``), so the options, the source and
/// the extension are all signed. Thread-safe (a value).
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
    /// The decoded source URL, in its canonical form (``CanonicalURL``): what is checked,
    /// keyed and fetched.
    public var source: URL

    /// The part of the path the signature covers: `/{options}/{source}[.{ext}]`.
    public var signedPart: String {
        "/\(optionsSegment)/\(sourceSegment)" + (fileExtension.map { ".\($0)" } ?? "")
    }

    /// Parses the three segments. Throws ``ServiceError`` (400) when the source is not base64url
    /// of an absolute http(s) URL that can be made canonical, or the extension is not a known
    /// format.
    public init(signature: String, options: String, source segment: String) throws(ServiceError) {
        self.signature = signature
        self.optionsSegment = options
        var encoded = segment
        var fileExtension: String?
        if let dot = segment.lastIndex(of: ".") {
            encoded = String(segment[..<dot])
            fileExtension = String(segment[segment.index(after: dot)...]).lowercased()
            guard OutputFormat(name: fileExtension!) != nil else {
                throw .badURL("unknown extension \".\(fileExtension!)\" (jpg, jpeg, png, webp, avif)")
            }
        }
        guard let bytes = Base64URL.decode(encoded), let string = String(bytes: bytes, encoding: .utf8) else {
            throw .badURL("the source segment is not base64url of an absolute http or https URL")
        }
        self.sourceSegment = encoded
        self.fileExtension = fileExtension
        self.source = try CanonicalURL.make(string)
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
