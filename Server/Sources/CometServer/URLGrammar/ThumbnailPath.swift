import Foundation

/// A service URL's path in imgproxy's grammar, split and decoded:
///
/// - `/{signature}/{option}/{option}…/plain/{source URL}[@{extension}]`
/// - `/{signature}/{option}/{option}…/{base64url(source URL)}[.{extension}]`, the base64url text
///   possibly split over several segments
///
/// Each option is one segment, `name:arg:arg…`. The options end at the first segment that holds
/// no `:`; that segment and the ones after it are the source. A `plain/` source is the rest of
/// the path joined back with `/`, percent-decoded once; a base64url source is the rest joined
/// with nothing, padding optional. Under ``PathMode/onlyPresets`` the first segment names
/// presets (`name1:name2`) and nothing else, and the source follows it.
///
/// The signature covers ``signedPart``: everything after the signature segment, from its `/`,
/// as the request wrote it (browsers' and proxies' `http:/` for `http://` after `plain/` are
/// mended first, as imgproxy does). Read over the path's UTF-8 bytes. Thread-safe (a value).
public struct ThumbnailPath: Sendable, Hashable {
    /// How the source is written.
    public enum SourceForm: Sendable, Hashable {
        /// After `plain/`, percent-encoded or not, the extension after `@`.
        case plain
        /// base64url, the extension after `.`.
        case base64
    }

    /// How the options part of a path is read.
    public enum PathMode: Sendable, Hashable {
        /// Options as segments (`rs:fill:300:200/q:80/…`).
        case options
        /// The first segment names presets (`name1:name2`): imgproxy's `IMGPROXY_ONLY_PRESETS`.
        case onlyPresets
    }

    /// The signature segment as written (base64url of an HMAC-SHA256, or anything when signing
    /// is off: `insecure`, `unsafe`, `_`).
    public var signature: String
    /// What the signature covers: the path after the signature segment, from its `/`.
    public var signedPart: String
    /// The option segments, percent-decoded, in the order written (under
    /// ``PathMode/onlyPresets`` one `pr:…` segment naming the presets).
    public var options: [String]
    /// How the source is written.
    public var sourceForm: SourceForm
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

    /// Parses `path` (a request's path, without its query), as `mode` says. Throws
    /// ``ServiceError``: ``ServiceError/notFound(_:)`` when there is no signature segment or
    /// nothing after it (imgproxy's 404), ``ServiceError/badURL(_:)`` (400) when the source is
    /// not an absolute http(s) URL that can be made canonical, when it names two extensions or
    /// the extension is not a format we write.
    public init(path: String, mode: PathMode = .options) throws(ServiceError) {
        let (signature, signedPart) = try Self.split(path)
        try self.init(signature: signature, signedPart: signedPart, mode: mode)
    }

    /// Parses the part of a path after its signature segment (``signedPart``, as ``split(_:)``
    /// gives it), throwing as ``init(path:mode:)`` does.
    public init(signature: String, signedPart: String, mode: PathMode = .options) throws(ServiceError) {
        var text = signedPart
        var failure: ServiceError?
        // An optional and an error beside it, not a `Result`: a path moves out of the optional,
        // where `Result.get()` copied it.
        let parsed = text.withUTF8 { bytes -> ThumbnailPath? in
            do throws(ServiceError) {
                return try Parser(bytes: bytes, mode: mode).read(signature: signature, signedPart: signedPart)
            } catch {
                failure = error
                return nil
            }
        }
        guard let parsed else { throw failure ?? .badURL("the path could not be read") }
        self = consume parsed
    }

    /// A request's `path` split into its signature segment and the part the signature covers
    /// (from the `/` after the signature; `plain/http:/` mended to `plain/http://`), checked
    /// before anything else is read, as imgproxy does. Throws ``ServiceError/notFound(_:)`` when
    /// there is no signature segment or nothing after it.
    public static func split(_ path: String) throws(ServiceError) -> (signature: String, signedPart: String) {
        var text = path
        let parts = text.withUTF8 { bytes -> (String, String)? in
            var start = 0
            if start < bytes.count, bytes[start] == UInt8(ascii: "/") { start += 1 }
            guard let slash = bytes[start...].firstIndex(of: UInt8(ascii: "/")), slash > start,
                slash + 1 < bytes.count
            else { return nil }
            let signature = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<slash]), as: UTF8.self)
            let signed = Parser.mendingSchemeSlashes(UnsafeBufferPointer(rebasing: bytes[slash...]))
            return (signature, signed)
        }
        guard let parts else { throw .notFound("invalid path: a service URL is /{signature}/{options…}/{source}") }
        return parts
    }

    fileprivate init(
        signature: String, signedPart: String, options: [String], sourceForm: SourceForm, fileExtension: String?,
        canonicalSource: String
    ) {
        self.signature = signature
        self.signedPart = signedPart
        self.options = options
        self.sourceForm = sourceForm
        self.fileExtension = fileExtension
        self.canonicalSource = canonicalSource
    }

    /// The path for `options` (`/` between them, as a URL's path holds them; `""` or `-` for
    /// none)
    /// and `source`, signed by `signer` (`insecure` in place of the signature when `signer` is
    /// `nil`): the source as base64url and the extension after `.`, or with `plain: true` as a
    /// `plain/` source, percent-encoded where a path segment may not hold it, the extension
    /// after `@`.
    public static func make(
        options: String, source: URL, fileExtension: String? = nil, plain: Bool = false, signer: URLSigner?
    ) -> String {
        var signed = options.isEmpty || options == "-" ? "" : "/\(options)"
        if plain {
            signed += "/plain/" + Self.plainSpelling(of: source.absoluteString)
            if let fileExtension { signed += "@\(fileExtension)" }
        } else {
            signed += "/" + Base64URL.encode(Array(source.absoluteString.utf8))
            if let fileExtension { signed += ".\(fileExtension)" }
        }
        return "/\(signer?.signature(for: signed) ?? "insecure")\(signed)"
    }

    /// `url` as a `plain/` source may hold it: `%`, `?`, `#`, `@` and whatever a path may not
    /// hold raw percent-encoded, so that decoding it once gives `url` back.
    static func plainSpelling(of url: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(url.utf8.count + 8)
        for byte in url.utf8 {
            let raw =
                ASCII.mayStandRaw(byte) && byte != UInt8(ascii: "?") && byte != UInt8(ascii: "@")
            if raw { output.append(byte) } else { ASCII.appendEscape(byte, to: &output) }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// Reads one path over its bytes (``ThumbnailPath/init(path:mode:)``).
private struct Parser {
    /// A source URL's bytes before they are made canonical.
    enum SourceBytes {
        /// As the path writes them, at this range of the signed part: nothing to decode.
        case written(Range<Int>)
        /// Decoded from the path.
        case decoded([UInt8])
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let mode: ThumbnailPath.PathMode

    /// Image formats imgproxy knows (some it writes) that comet-server decodes or not but does not
    /// write: a result asked for in one is a 422, as imgproxy answers one it cannot save, where
    /// any other extension is a malformed URL.
    static let unwrittenImageExtensions: Set<String> = [
        "svg", "tiff", "tif", "bmp", "ico", "heic", "heif", "jxl", "pdf", "mp4",
    ]

    private static let plainToken = Array("plain".utf8)

    /// Reads the signed part (from its `/`; `signedPart` as a string, which the path keeps) into
    /// a path.
    func read(signature: String, signedPart: String) throws(ServiceError) -> ThumbnailPath {
        let signed = bytes
        var options: [String] = []
        options.reserveCapacity(8)
        var index = signed.first == UInt8(ascii: "/") ? 1 : 0
        if mode == .onlyPresets {
            let end = signed[index...].firstIndex(of: UInt8(ascii: "/")) ?? signed.endIndex
            let names = PercentDecoding.decoded(string(signed, index..<end))
            let named = names.hasPrefix("pr:") || names.hasPrefix("preset:")
            options.append(named ? names : "pr:" + names)
            index = min(end + 1, signed.endIndex)
        } else {
            while index < signed.endIndex {
                let end = signed[index...].firstIndex(of: UInt8(ascii: "/")) ?? signed.endIndex
                guard signed[index..<end].contains(UInt8(ascii: ":")) else { break }
                options.append(PercentDecoding.decoded(string(signed, index..<end)))
                index = end + 1
            }
        }
        guard index < signed.endIndex else { throw .badURL("the URL has no source after its options") }
        let rest = UnsafeBufferPointer(rebasing: signed[index...])
        let form: ThumbnailPath.SourceForm
        let sourceBytes: SourceBytes
        let fileExtension: String?
        if let slash = rest.firstIndex(of: UInt8(ascii: "/")),
            ASCII.equal(
                UnsafeBufferPointer(rebasing: rest[..<slash]), Self.plainToken), slash + 1 < rest.endIndex
        {
            form = .plain
            (sourceBytes, fileExtension) = try Self.plainSource(
                UnsafeBufferPointer(rebasing: rest[(slash + 1)...]), at: index + slash + 1)
        } else {
            form = .base64
            let decoded: [UInt8]
            (decoded, fileExtension) = try Self.base64Source(rest)
            sourceBytes = .decoded(decoded)
        }
        if let fileExtension, OutputFormat(name: fileExtension) == nil {
            guard !Self.unwrittenImageExtensions.contains(fileExtension) else {
                throw .unsupportedFormat(
                    "comet-server does not write \(fileExtension) results (jpg, jpeg, png, webp, avif, gif)")
            }
            throw .badURL("unknown extension \"\(fileExtension)\" (jpg, jpeg, png, webp, avif, gif)")
        }
        let canonical: String
        switch sourceBytes {
        case .written(let range):
            canonical = try CanonicalURL.canonicalString(UnsafeBufferPointer(rebasing: signed[range]))
        case .decoded(let bytes):
            canonical = try bytes.withUnsafeBufferPointer { source throws(ServiceError) in
                try CanonicalURL.canonicalString(source)
            }
        }
        return ThumbnailPath(
            signature: signature, signedPart: signedPart, options: options,
            sourceForm: form, fileExtension: fileExtension, canonicalSource: canonical)
    }

    /// A `plain/` source (`text`, which starts at `offset` in the signed part): the URL before a
    /// single `@`, percent-decoded once (bytes a URL may not hold raw are then encoded again, for
    /// the canonical form to read), and the extension after it.
    private static func plainSource(
        _ text: UnsafeBufferPointer<UInt8>, at offset: Int
    ) throws(ServiceError) -> (SourceBytes, String?) {
        var url = text[...]
        var fileExtension: String?
        if let at = text.firstIndex(of: UInt8(ascii: "@")) {
            guard !text[(at + 1)...].contains(UInt8(ascii: "@")) else {
                throw .badURL("a plain source names more than one extension (@); encode an @ of the URL as %40")
            }
            url = text[..<at]
            if at + 1 < text.endIndex { fileExtension = lowercased(text[(at + 1)...]) }
        }
        guard !url.isEmpty else { throw .badURL("the source URL is empty") }
        // The usual source needs no decoding: it is read where the path holds it.
        if !url.contains(where: { $0 == UInt8(ascii: "%") || $0 == 0x20 || $0 >= 0x80 }) {
            return (.written((offset + url.startIndex)..<(offset + url.endIndex)), fileExtension)
        }
        var output: [UInt8] = []
        output.reserveCapacity(url.count)
        var index = url.startIndex
        while index < url.endIndex {
            var byte = url[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < url.endIndex else { throw .badURL("the plain source has a bad percent-escape") }
                let high = ASCII.hexValue(url[index + 1])
                let low = ASCII.hexValue(url[index + 2])
                guard high != ASCII.notHex, low != ASCII.notHex else {
                    throw .badURL("the plain source has a bad percent-escape")
                }
                byte = high << 4 | low
                index += 2
            }
            index += 1
            // Decoded bytes the canonical form would refuse raw (a space, beyond ASCII) are
            // encoded again. Every other byte stays as decoded, for the canonical form to read
            // as it reads a base64url source's: controls and `\` are refused there, `[` `]`
            // bracket an IPv6 host (and are encoded in a path), and a decoded `%` starts an
            // escape of the source URL itself (`%2520` → `%20`).
            if byte == 0x20 || byte >= 0x80 {
                ASCII.appendEscape(byte, to: &output)
            } else {
                output.append(byte)
            }
        }
        return (.decoded(output), fileExtension)
    }

    /// A base64url source: the segments joined, the text before a single `.` decoded, and the
    /// extension after it.
    private static func base64Source(_ text: UnsafeBufferPointer<UInt8>) throws(ServiceError) -> ([UInt8], String?) {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.count)
        var fileExtension: String?
        var dot: Int?
        for (offset, byte) in text.enumerated() where byte != UInt8(ascii: "/") {
            if byte == UInt8(ascii: ".") {
                guard dot == nil else { throw .badURL("the source names more than one extension (.)") }
                dot = offset
                continue
            }
            if dot == nil { encoded.append(byte) }
        }
        if let dot, dot + 1 < text.endIndex {
            let name = lowercased(text[(dot + 1)...])
            if !name.isEmpty { fileExtension = name }
        }
        guard !encoded.isEmpty else { throw .badURL("the source URL is empty") }
        let decoded = encoded.withUnsafeBufferPointer { Base64URL.decode(bytes: $0) }
        guard let decoded, !decoded.contains(where: { $0 >= 0x80 }) || String(validating: decoded, as: UTF8.self) != nil
        else {
            throw .badURL("the source is neither plain/… nor base64url of an absolute http or https URL")
        }
        return (decoded, fileExtension)
    }

    /// `bytes` with `/` added after `plain/{scheme}:` where one of the scheme's two slashes was
    /// merged away (`plain/http:/host` → `plain/http://host`), as imgproxy mends them before
    /// checking the signature. Only the first `/plain/` is looked at: no option segment is
    /// `plain`, so it starts the source (or lies inside base64url text, where no `:` is), and a
    /// `/plain/` after it is the source URL's own, left as written.
    static func mendingSchemeSlashes(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let found = firstIndex(of: marker, in: bytes, from: 0) {
            var end = found + marker.count
            while end < bytes.count, isSchemeByte(bytes[end]) { end += 1 }
            if end > found + marker.count, end + 2 < bytes.count, bytes[end] == UInt8(ascii: ":"),
                bytes[end + 1] == UInt8(ascii: "/"), bytes[end + 2] != UInt8(ascii: "/")
            {
                var output = Array(bytes[...(end + 1)])
                output.append(UInt8(ascii: "/"))
                output.append(contentsOf: bytes[(end + 2)...])
                return String(decoding: output, as: UTF8.self)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let marker = Array("/plain/".utf8)

    /// Whether a URL scheme may hold the byte (RFC 3986: letters, digits, `+`, `-`, `.`).
    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    /// Where `marker` first stands in `bytes` at or after `start`.
    private static func firstIndex(of marker: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        var index = start
        while index <= bytes.count - marker.count {
            if bytes[index] == marker[0], bytes[index..<(index + marker.count)].elementsEqual(marker) { return index }
            index += 1
        }
        return nil
    }

    private static func lowercased(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: bytes.lazy.map(ASCII.lowercased), as: UTF8.self)
    }

    private func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
