import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one spelling of a source URL that the service checks, signs into cache keys and fetches.
///
/// Parsing is strict and happens once: the allow-list, the address check and the fetch all see
/// the same URL, so a spelling that one of them reads differently from another (a dot segment
/// the fetch would remove, an encoded slash, a user name before the host) cannot slip a source
/// past the allow-list.
///
/// - The scheme is lower-cased and must be `http` or `https`, followed by `//`.
/// - Refused: user information (`user@host`), backslashes anywhere before the query, control
///   characters, spaces and non-ASCII characters (URLs arrive percent-encoded), a non-ASCII
///   host (give it in its `xn--` form), a percent-encoded host, an IPv6 zone, an empty host
///   label, a port outside 1–65535, and in the path an encoded `/` (`%2F`) or `\` (`%5C`) or
///   an encoded control character.
/// - The host is lower-cased and loses one trailing dot. A host the IPv4 parser of the URL
///   standard reads as an address (`127.1`, `0x7f.0.0.1`, `2130706433`, `0177.0.0.1`) becomes
///   its dotted-decimal form; an IPv6 literal becomes its compressed lower-case form.
/// - A default port (80 for http, 443 for https) is dropped.
/// - In the path and the query, percent-escapes of unreserved characters (`A–Z a–z 0–9 - . _ ~`)
///   are decoded, other escapes are upper-cased, and characters a URL may not hold raw are
///   encoded. Then dot segments are removed from the path (RFC 3986, 5.2.4), so `/a/%2e%2e/b`
///   is `/b`. An empty path is `/`.
/// - The fragment is dropped (it is never sent).
///
/// Thread-safe (stateless).
public enum CanonicalURL {
    /// The canonical form of `string`. Throws ``ServiceError/badURL(_:)`` (400) with the reason
    /// when `string` cannot be made canonical.
    public static func make(_ string: String) throws(ServiceError) -> URL {
        let canonical = try canonicalString(string)
        guard let url = URL(string: canonical) else { throw .badURL("the source URL \(canonical) cannot be parsed") }
        return url
    }

    /// The canonical form of `url` (see ``make(_:)-(String)``).
    public static func make(_ url: URL) throws(ServiceError) -> URL {
        try make(url.absoluteString)
    }

    /// The canonical spelling of `string`, as a string.
    public static func canonicalString(_ string: String) throws(ServiceError) -> String {
        var bytes = Array(string.utf8)[...]
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .badURL("the source URL holds a space, a control or a non-ASCII character (percent-encode it)")
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { throw .badURL("the source URL has no scheme") }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        guard scheme == "http" || scheme == "https" else { throw .badURL("only http and https sources are fetched") }
        bytes = bytes[(colon + 1)...]
        guard bytes.starts(with: "//".utf8) else { throw .badURL("the source URL needs // after \(scheme):") }
        bytes = bytes.dropFirst(2)

        // The fragment is never sent; the query keeps its slashes and backslashes as data.
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes = bytes[..<hash] }
        var query: ArraySlice<UInt8>?
        if let mark = bytes.firstIndex(of: UInt8(ascii: "?")) {
            query = bytes[(mark + 1)...]
            bytes = bytes[..<mark]
        }
        guard !bytes.contains(UInt8(ascii: "\\")) else {
            throw .badURL("the source URL holds a backslash before its query (clients read it as /)")
        }
        let slash = bytes.firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        let authority = try Self.authority(bytes[..<slash], scheme: scheme)
        let path = try Self.path(bytes[slash...])
        var result = "\(scheme)://\(authority)\(path)"
        if let query { result += "?" + (try normalizedEscapes(query, in: "query", refusesEncodedSlashes: false)) }
        return result
    }

    // MARK: Authority

    private static func authority(_ bytes: ArraySlice<UInt8>, scheme: String) throws(ServiceError) -> String {
        guard !bytes.contains(UInt8(ascii: "@")) else {
            throw .badURL("the source URL names a user before its host (user@host is refused)")
        }
        var hostBytes = bytes
        var portBytes: ArraySlice<UInt8>?
        let host: String
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else {
                throw .badURL("the source's IPv6 host has no ]")
            }
            hostBytes = bytes[(bytes.startIndex + 1)..<close]
            let rest = bytes[(close + 1)...]
            if !rest.isEmpty {
                guard rest.first == UInt8(ascii: ":") else {
                    throw .badURL("the source's IPv6 host is followed by more than a port")
                }
                portBytes = rest.dropFirst()
            }
            host = "[" + (try ipv6(String(decoding: hostBytes, as: UTF8.self))) + "]"
        } else {
            if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
                hostBytes = bytes[..<colon]
                portBytes = bytes[(colon + 1)...]
            }
            host = try registeredName(hostBytes)
        }
        guard let portBytes else { return host }
        guard !portBytes.isEmpty, portBytes.count <= 5, portBytes.allSatisfy({ (0x30...0x39).contains($0) }),
            let port = Int(String(decoding: portBytes, as: UTF8.self)), (1...65535).contains(port)
        else {
            throw .badURL("the source's port is not a number from 1 to 65535")
        }
        let isDefault = (scheme == "http" && port == 80) || (scheme == "https" && port == 443)
        return isDefault ? host : "\(host):\(port)"
    }

    private static func registeredName(_ bytes: ArraySlice<UInt8>) throws(ServiceError) -> String {
        var name = String(decoding: bytes, as: UTF8.self).lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty else { throw .badURL("the source URL has no host") }
        guard !name.contains("%") else { throw .badURL("the source's host is percent-encoded") }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_.".utf8)
        guard name.utf8.allSatisfy(allowed.contains) else {
            throw .badURL(
                "the source's host \(name) holds characters a host name may not (give an international name in its xn-- form)"
            )
        }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !labels.contains(where: \.isEmpty) else { throw .badURL("the source's host \(name) has an empty label") }
        return try ipv4(labels) ?? name
    }

    /// The dotted-decimal form of a host the URL standard's IPv4 parser accepts, `nil` for a
    /// host name (its last label is not a number).
    private static func ipv4(_ labels: [Substring]) throws(ServiceError) -> String? {
        guard let last = labels.last, number(last) != nil else { return nil }
        guard labels.count <= 4 else {
            throw .badURL("the source's host looks like an IPv4 address with more than four parts")
        }
        var parts: [UInt64] = []
        for label in labels {
            guard let value = number(label) else { throw .badURL("the source's host mixes numbers and names") }
            parts.append(value)
        }
        let leading = parts.dropLast()
        guard leading.allSatisfy({ $0 <= 255 }), parts.last! < (UInt64(1) << (8 * (5 - parts.count))) else {
            throw .badURL("the source's host is an IPv4 address out of range")
        }
        var address = parts.last!
        for (index, part) in leading.enumerated() { address += part << (8 * (3 - index)) }
        return (0..<4).map { String((address >> (8 * (3 - $0))) & 0xFF) }.joined(separator: ".")
    }

    /// A label read as the URL standard reads IPv4 parts: decimal, octal with a leading 0, or
    /// hexadecimal with 0x; `nil` when it is not a number.
    private static func number(_ label: Substring) -> UInt64? {
        var digits = label, radix: UInt64 = 10
        if digits.count >= 2, digits.lowercased().hasPrefix("0x") {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.hasPrefix("0") {
            digits = digits.dropFirst()
            radix = 8
        }
        if digits.isEmpty { return radix == 16 ? 0 : nil }
        guard digits.count <= 32 else { return nil }
        var value: UInt64 = 0
        for character in digits {
            guard let digit = character.hexDigitValue, UInt64(digit) < radix else { return nil }
            let (product, overflow) = value.multipliedReportingOverflow(by: radix)
            guard !overflow else { return UInt64.max }
            value = product + UInt64(digit)
        }
        return value
    }

    private static func ipv6(_ literal: String) throws(ServiceError) -> String {
        guard !literal.contains("%") else {
            throw .badURL("the source's IPv6 host has a zone, which sources may not use")
        }
        var address = in6_addr()
        guard inet_pton(AF_INET6, literal, &address) == 1 else {
            throw .badURL("the source's IPv6 host \(literal) is not an address")
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else {
            throw .badURL("the source's IPv6 host \(literal) is not an address")
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
    }

    // MARK: Path and query

    private static func path(_ bytes: ArraySlice<UInt8>) throws(ServiceError) -> String {
        let normalized = try normalizedEscapes(bytes, in: "path", refusesEncodedSlashes: true)
        return removingDotSegments(normalized.isEmpty ? "/" : normalized)
    }

    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    /// What a path or query may hold unencoded besides the unreserved characters.
    private static let allowedRaw = Set("!$&'()*+,;=:@/?".utf8)
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Decodes escapes of unreserved characters, upper-cases the others, encodes what may not
    /// stand raw. In a path, an encoded `/` or `\` is refused: no canonical form keeps its
    /// meaning for every server.
    private static func normalizedEscapes(
        _ bytes: ArraySlice<UInt8>, in part: String,
        refusesEncodedSlashes: Bool
    ) throws(ServiceError) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        func encode(_ byte: UInt8) {
            output += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                    let high = Character(UnicodeScalar(bytes[index + 1])).hexDigitValue,
                    let low = Character(UnicodeScalar(bytes[index + 2])).hexDigitValue
                else {
                    throw .badURL("the source's \(part) has a % that does not start an escape")
                }
                let decoded = UInt8(high << 4 | low)
                if refusesEncodedSlashes, decoded == UInt8(ascii: "/") || decoded == UInt8(ascii: "\\") {
                    throw .badURL("the source's path holds an encoded / or \\ (%2F or %5C)")
                }
                guard decoded >= 0x20, decoded != 0x7F else {
                    throw .badURL("the source's \(part) holds an encoded control character")
                }
                if unreserved.contains(decoded) { output.append(decoded) } else { encode(decoded) }
                index += 3
            } else {
                if unreserved.contains(byte) || allowedRaw.contains(byte) { output.append(byte) } else { encode(byte) }
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// RFC 3986, 5.2.4, on an absolute path.
    private static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/")
    }
}
