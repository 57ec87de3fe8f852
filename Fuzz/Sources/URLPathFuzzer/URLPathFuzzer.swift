import CometServer
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// libFuzzer harness for comet-server's request path, everything it runs before a fetch: the
// input is a request path, and after a first `\n` an Accept value. The oracles:
//   - nothing crashes (ASan reports and the checks below, which abort, are findings);
//   - the signature check with a fixed key accepts the signature made for the signed part, and
//     a signed server reads the path as the unsigned one does;
//   - an accepted path's canonical spelling (canonical options, canonical source as base64url
//     and as `plain/`, the extension by its format's name) parses to the same request: equal
//     options, canonical text, source, format choice and result key;
//   - the canonical source is never one the policy refuses without DNS: it is its own canonical
//     form, Foundation reads the same host, a numeric host is the address the system's own
//     parser (inet_aton, inet_pton) reads, and with an allow-list the source is inside it as
//     Foundation reads the URL.

/// Stops the fuzzer with `message` (on stderr: a release build's precondition drops its text).
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("URLPathFuzzer: \(message)\n".utf8))
    abort()
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}

let signer = try! URLSigner(hexKey: "736563726574", hexSalt: "68656c6c6f")

/// No signer (so that the fuzzer reaches the grammar), default policy, no presets.
let open = ServerConfiguration()

/// The same server, signing its URLs with `signer`.
let signed: ServerConfiguration = {
    var configuration = ServerConfiguration()
    configuration.signer = signer
    return configuration
}()

/// The same server with an allow-list: one prefix and one host name.
let allowListed: ServerConfiguration = {
    var configuration = ServerConfiguration()
    configuration.sourcePolicy = SourcePolicy(allowedSources: ["https://img.example.com/public/", "cdn.example.org"])
    return configuration
}()

/// What must be equal between two requests for one to stand for the other.
func identity(_ request: ThumbnailRequest) -> [String] {
    [
        request.options.canonical, request.path.canonicalSource, request.storeKey, "\(request.choice)",
        "\(request.variesOnAccept)", "\(request.keepsAnimation)",
    ]
}

func canonicalPath(of request: ThumbnailRequest, plain: Bool) -> String {
    ThumbnailPath.make(
        options: request.options.canonical, source: request.path.source,
        fileExtension: request.path.fileExtension.flatMap(OutputFormat.init(name:))?.rawValue, plain: plain,
        signer: nil)
}

/// The address the C library reads a numeric host as (IPv4 in any of inet_aton's spellings,
/// or IPv6), as `inet_ntop` writes it; `nil` for a name.
func systemAddress(_ host: String) -> String? {
    if host.hasPrefix("[") {
        var address = in6_addr()
        guard inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &address) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return "[" + String(cString: buffer) + "]"
    }
    var address = in_addr()
    guard inet_aton(host, &address) != 0 else { return nil }
    guard let text = inet_ntoa(address) else { return nil }
    return String(cString: text)
}

func checkSource(_ canonical: String, context: String) {
    check(
        (try? CanonicalURL.canonicalString(canonical)) == canonical,
        "the canonical source is not a fixed point: \(context)"
    )
    check(
        canonical.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "#") },
        "a byte a URL may not hold raw: \(context)")
    let url = URL(string: canonical)!
    check((try? SourcePolicy().checkWithoutResolving(url))?.absoluteString == canonical, "refused: \(context)")
    check(url.scheme == "http" || url.scheme == "https", "scheme: \(context)")
    check(url.user == nil && url.password == nil, "user information: \(context)")

    // The authority as written: no user, no escape; a lower-case host without a final dot that
    // Foundation reads the same, and that the C library reads as itself if it is numeric.
    let authority = canonical[canonical.range(of: "://")!.upperBound...].prefix { $0 != "/" && $0 != "?" }
    check(!authority.contains("@") && !authority.contains("%"), "authority \(authority): \(context)")
    var host = String(authority)
    if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
        host = String(host[...close])
    } else if let colon = host.lastIndex(of: ":") {
        host = String(host[..<colon])
    }
    check(host == host.lowercased() && !host.isEmpty && !host.hasSuffix("."), "host \(host): \(context)")
    let foundationHost = url.host.map { $0.hasPrefix("[") || !$0.contains(":") ? $0 : "[\($0)]" }
    check(foundationHost == host, "Foundation reads host \(url.host ?? "-"), not \(host): \(context)")
    if let address = systemAddress(host) {
        check(address == host, "the system reads \(host) as \(address): \(context)")
    }

    // The path: no dot segment, no encoded slash or backslash.
    let path = canonical[authority.endIndex...].prefix { $0 != "?" }
    check(path.hasPrefix("/"), "a path that does not start with /: \(context)")
    check(
        !path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }),
        "a dot segment: \(context)")
    check(
        !path.uppercased().contains("%2F") && !path.uppercased().contains("%5C"), "an encoded slash: \(context)")
}

/// Checks that the allow-listed server admitted only what its list names, as Foundation reads
/// the URL.
func checkAllowListed(_ request: ThumbnailRequest, context: String) {
    let url = request.path.source
    let host = url.host ?? ""
    let prefixed =
        host == "img.example.com" && url.scheme == "https" && url.port == nil
        && url.path(percentEncoded: true).hasPrefix("/public/")
    check(prefixed || host == "cdn.example.org", "outside the allow-list: \(context)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = UnsafeBufferPointer(start: bytes, count: count)
    let newline = input.firstIndex(of: UInt8(ascii: "\n")) ?? input.endIndex
    let path = String(decoding: UnsafeBufferPointer(rebasing: input[..<newline]), as: UTF8.self)
    let accept =
        newline < input.endIndex
        ? String(decoding: UnsafeBufferPointer(rebasing: input[(newline + 1)...]), as: UTF8.self) : nil

    // The signature: whatever the segment says, and the one made for the signed part.
    guard let (signature, signedPart) = try? ThumbnailPath.split(path) else { return 0 }
    _ = signer.isValid(signature, for: signedPart)
    let made = signer.signature(for: signedPart)
    check(signer.isValid(made, for: signedPart), "the made signature is refused: \(path)")

    let request: ThumbnailRequest
    do {
        request = try ThumbnailRequest(path: path, accept: accept, configuration: open)
    } catch {
        check((400...404).contains(error.status), "status \(error.status) for \(path)")
        return 0
    }
    let context = "\(path) → \(request.path.canonicalSource)"
    checkSource(request.path.canonicalSource, context: context)

    let signedRequest = try? ThumbnailRequest(path: "/" + made + signedPart, accept: accept, configuration: signed)
    check(signedRequest.map(identity) == identity(request), "signed, read otherwise: \(context)")

    for plain in [false, true] {
        let spelling = canonicalPath(of: request, plain: plain)
        guard let again = try? ThumbnailRequest(path: spelling, accept: accept, configuration: open) else {
            fail("accepted, but not its canonical spelling \(spelling): \(context)")
        }
        check(again.options == request.options, "\(spelling) has other options: \(context)")
        check(identity(again) == identity(request), "\(spelling) is another request: \(context)")
        check(canonicalPath(of: again, plain: plain) == spelling, "\(spelling) is not a fixed point")
    }

    if let listed = try? ThumbnailRequest(path: path, accept: accept, configuration: allowListed) {
        checkAllowListed(listed, context: context)
    }
    return 0
}
