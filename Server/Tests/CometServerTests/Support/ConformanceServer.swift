import Comet
import CometServer
import Foundation

/// A comet-server of the conformance suite, with the key and salt pairs its URLs are signed
/// with (none: signing off), and what the suite asks it for: paths as imgproxy's "Processing an
/// image" guide writes them, signed with ``IndependentHMAC``, answered through a real client.
/// The servers are started once each and shared (``ConformanceServers``). Thread-safe.
struct ConformanceServer: Sendable {
    /// One key and salt, raw bytes.
    struct KeyPair: Sendable {
        var key: [UInt8]
        var salt: [UInt8]
    }

    /// `http://127.0.0.1:PORT`
    let base: String
    /// The pairs the server accepts; the first signs the suite's URLs. Empty: signing is off.
    let pairs: [KeyPair]
    /// How many bytes of the digest a signature holds.
    let signatureSize: Int

    /// The URL of `signedPart` (everything after the signature segment, from its `/`), signed
    /// with the first pair (`insecure` when signing is off).
    func url(_ signedPart: String) -> URL {
        url(signedPart, signature: pairs.first.map { sign(signedPart, with: $0) } ?? "insecure")
    }

    /// The URL of `signedPart` with `signature` as its signature segment.
    func url(_ signedPart: String, signature: String) -> URL {
        URL(string: base + "/" + signature + signedPart)!
    }

    /// The signature of `signedPart` with `pair`, ``signatureSize`` bytes long.
    func sign(_ signedPart: String, with pair: KeyPair) -> String {
        IndependentHMAC.signature(key: pair.key, salt: pair.salt, path: signedPart, size: signatureSize)
    }

    /// The answer to a GET of `signedPart`, signed.
    func get(_ signedPart: String, headers: [String: String] = [:]) async throws -> ConformanceAnswer {
        try await ConformanceAnswer.get(url(signedPart), headers: headers)
    }
}

/// One answer of a server, with what the suite checks: its status, its format (by magic bytes
/// and by `Content-Type`) and its size (by decoding it).
struct ConformanceAnswer: Sendable {
    let status: Int
    let headers: [String: String]
    let body: [UInt8]

    // A minute per request: the suite's few hundred cases share two cores with the rest of
    // `make serve-test`, and ``gate`` queues them here rather than at the servers.
    private static let client = HTTPClient(timeout: 60)
    private static let gate = RequestGate(limit: 8)

    /// Requests `url`, at most eight of the suite's requests being in flight at once.
    static func get(_ url: URL, headers: [String: String] = [:]) async throws -> ConformanceAnswer {
        await gate.enter()
        do {
            let answer = try await client.get(url, headers: headers)
            await gate.leave()
            return ConformanceAnswer(status: answer.status, headers: answer.headers, body: answer.body)
        } catch {
            await gate.leave()
            throw error
        }
    }

    /// A header, by case-insensitive name.
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// `Content-Type`.
    var contentType: String? { header("Content-Type") }

    /// The format the body's magic bytes name: `jpeg`, `png`, `webp`, `avif` or `gif`; `nil`
    /// for anything else.
    var format: String? {
        if Magic.isJPEG(body) { return "jpeg" }
        if Magic.isPNG(body) { return "png" }
        if Magic.isWebP(body) { return "webp" }
        if Magic.isAVIF(body) { return "avif" }
        if body.starts(with: Array("GIF8".utf8)) { return "gif" }
        return nil
    }

    /// The decoded image (the first frame of an animation), or `nil` when the body is none.
    var image: Image? { try? ImageDecoders.decode(Data(body)).image }

    /// The decoded image's width and height, or `nil` when the body is no image.
    var size: Size? { image.map { Size(width: $0.width, height: $0.height) } }

    /// The frames of an animated body (1 for a still image, 0 for none).
    var frameCount: Int {
        guard let decoded = try? ImageDecoders.decode(Data(body), options: .init(decodesAnimation: true)) else {
            return 0
        }
        return decoded.animation?.frames.count ?? 1
    }

    /// The JSON error's message, for failure notes.
    var text: String { String(decoding: body.prefix(400), as: UTF8.self) }

    /// A width and a height, compared as a pair.
    struct Size: Sendable, Hashable, CustomStringConvertible {
        var width: Int
        var height: Int
        var description: String { "\(width)×\(height)" }
    }
}

/// The paths imgproxy's "Processing an image" guide writes, made here from their parts.
enum ImgproxyPath {
    /// `/{options}/plain/{source}[@{ext}]`: the source as it is, or (`escaped`) with every byte
    /// but the unreserved ones percent-encoded, as Go's `url.PathEscape` and most clients write it.
    static func plain(_ options: String, _ source: String, ext: String? = nil, escaped: Bool = false) -> String {
        let written = escaped ? percentEncoded(source) : source
        return prefix(options) + "/plain/" + written + (ext.map { "@" + $0 } ?? "")
    }

    /// `/{options}/{base64url(source)}[.{ext}]`, padded or not, the encoded text split into
    /// segments of `splitEvery` characters when given.
    static func base64(
        _ options: String, _ source: String, ext: String? = nil, padded: Bool = false, splitEvery: Int? = nil
    ) -> String {
        let bytes = Array(source.utf8)
        var encoded = padded ? IndependentHMAC.paddedBase64URL(bytes) : IndependentHMAC.base64URL(bytes)
        if let splitEvery {
            var pieces: [String] = []
            var rest = Substring(encoded)
            while !rest.isEmpty {
                pieces.append(String(rest.prefix(splitEvery)))
                rest = rest.dropFirst(splitEvery)
            }
            encoded = pieces.joined(separator: "/")
        }
        return prefix(options) + "/" + encoded + (ext.map { "." + $0 } ?? "")
    }

    /// `text` with every byte but letters, digits, `-`, `.`, `_` and `~` percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        text.utf8.map { byte -> String in
            let unreserved =
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte)
            return unreserved ? String(UnicodeScalar(byte)) : "%" + IndependentHMAC.hex([byte]).uppercased()
        }.joined()
    }

    private static func prefix(_ options: String) -> String { options.isEmpty ? "" : "/" + options }
}

/// A counting gate: at most `limit` holders at once, the others waiting in arrival order.
/// Thread-safe (an actor).
actor RequestGate {
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// A gate letting `limit` holders in at once.
    init(limit: Int) { available = limit }

    /// Waits for a place and takes it.
    func enter() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives the place back, to the longest waiting caller if any.
    func leave() {
        if waiting.isEmpty { available += 1 } else { waiting.removeFirst().resume() }
    }
}
