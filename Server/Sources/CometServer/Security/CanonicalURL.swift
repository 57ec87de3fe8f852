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
/// Works on the URL's bytes with ASCII tables: no Foundation string bridging, no Unicode
/// properties (it runs for every request). Thread-safe (stateless).
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
        var string = string
        let canonical = string.withUTF8 { input in Result { () throws(ServiceError) in try canonicalString(input) } }
        return try canonical.get()
    }

    /// The canonical spelling of the URL whose UTF-8 bytes are `input`, as a string: `input`
    /// itself when it is spelled canonically already (``isCanonical(_:)``, the usual case), else
    /// ``canonicalBytes(_:)``.
    static func canonicalString(_ input: UnsafeBufferPointer<UInt8>) throws(ServiceError) -> String {
        if isCanonical(input) { return String(decoding: input, as: UTF8.self) }
        return String(decoding: try canonicalBytes(input), as: UTF8.self)
    }

    /// The host of a canonical spelling, as Foundation's `URL.host` reads it: lower-case, an
    /// IPv6 literal without its brackets, no port.
    static func host(ofCanonical canonical: String) -> String {
        let bytes = canonical.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return "" }
        let authority = bytes[colon...].dropFirst(3).prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") }
        if authority.first == UInt8(ascii: "["), let close = authority.firstIndex(of: UInt8(ascii: "]")) {
            return String(Substring(authority[authority.index(after: authority.startIndex)..<close]))
        }
        return String(Substring(authority[..<(authority.lastIndex(of: UInt8(ascii: ":")) ?? authority.endIndex)]))
    }

    /// The canonical spelling of the URL whose UTF-8 bytes are `input`.
    static func canonicalBytes(_ input: UnsafeBufferPointer<UInt8>) throws(ServiceError) -> [UInt8] {
        guard input.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .badURL("the source URL holds a space, a control or a non-ASCII character (percent-encode it)")
        }
        guard let colon = input.firstIndex(of: UInt8(ascii: ":")) else { throw .badURL("the source URL has no scheme") }
        var output: [UInt8] = []
        output.reserveCapacity(input.count + 8)
        for byte in input[..<colon] { output.append(ASCII.lowercased(byte)) }
        let isHTTPS: Bool
        // Compared as arrays: `elementsEqual` against a `String.UTF8View` is generic at run time.
        if output == httpScheme {
            isHTTPS = false
        } else if output == httpsScheme {
            isHTTPS = true
        } else {
            throw .badURL("only http and https sources are fetched")
        }
        var bytes = input[(colon + 1)...]
        guard bytes.count >= 2, bytes[bytes.startIndex] == UInt8(ascii: "/"),
            bytes[bytes.startIndex + 1] == UInt8(ascii: "/")
        else {
            throw .badURL("the source URL needs // after \(String(decoding: output, as: UTF8.self)):")
        }
        bytes = bytes.dropFirst(2)
        output.append(contentsOf: "://".utf8)

        // The fragment is never sent; the query keeps its slashes and backslashes as data.
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes = bytes[..<hash] }
        var query: Slice<UnsafeBufferPointer<UInt8>>?
        if let mark = bytes.firstIndex(of: UInt8(ascii: "?")) {
            query = bytes[(mark + 1)...]
            bytes = bytes[..<mark]
        }
        guard !bytes.contains(UInt8(ascii: "\\")) else {
            throw .badURL("the source URL holds a backslash before its query (clients read it as /)")
        }
        let slash = bytes.firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        try appendAuthority(bytes[..<slash], isHTTPS: isHTTPS, to: &output)
        let pathStart = output.count
        try appendNormalizedEscapes(bytes[slash...], in: "path", refusesEncodedSlashes: true, to: &output)
        if output.count == pathStart { output.append(UInt8(ascii: "/")) }
        removeDotSegments(in: &output, from: pathStart)
        if let query {
            output.append(UInt8(ascii: "?"))
            try appendNormalizedEscapes(query, in: "query", refusesEncodedSlashes: false, to: &output)
        }
        return output
    }

    private static let httpScheme: [UInt8] = Array("http".utf8)
    private static let httpsScheme: [UInt8] = Array("https".utf8)

    // MARK: Authority

    private static func appendAuthority(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>, isHTTPS: Bool, to output: inout [UInt8]
    ) throws(ServiceError) {
        guard !bytes.contains(UInt8(ascii: "@")) else {
            throw .badURL("the source URL names a user before its host (user@host is refused)")
        }
        var portBytes: Slice<UnsafeBufferPointer<UInt8>>?
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else {
                throw .badURL("the source's IPv6 host has no ]")
            }
            let rest = bytes[(close + 1)...]
            if !rest.isEmpty {
                guard rest.first == UInt8(ascii: ":") else {
                    throw .badURL("the source's IPv6 host is followed by more than a port")
                }
                portBytes = rest.dropFirst()
            }
            let literal = String(decoding: bytes[(bytes.startIndex + 1)..<close], as: UTF8.self)
            output.append(UInt8(ascii: "["))
            output.append(contentsOf: try ipv6(literal).utf8)
            output.append(UInt8(ascii: "]"))
        } else {
            var hostBytes = bytes
            if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) {
                hostBytes = bytes[..<colon]
                portBytes = bytes[(colon + 1)...]
            }
            try appendRegisteredName(hostBytes, to: &output)
        }
        guard let portBytes else { return }
        guard !portBytes.isEmpty, portBytes.count <= 5, portBytes.allSatisfy(ASCII.isDigit) else {
            throw .badURL("the source's port is not a number from 1 to 65535")
        }
        let port = portBytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard (1...65535).contains(port) else { throw .badURL("the source's port is not a number from 1 to 65535") }
        guard port != (isHTTPS ? 443 : 80) else { return }
        output.append(UInt8(ascii: ":"))
        ASCII.appendDecimal(port, to: &output)
    }

    private static func appendRegisteredName(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>, to output: inout [UInt8]
    ) throws(ServiceError) {
        let start = output.count
        for byte in bytes { output.append(ASCII.lowercased(byte)) }
        if output.count > start, output.last == UInt8(ascii: ".") { output.removeLast() }
        let name = output[start...]
        guard !name.isEmpty else { throw .badURL("the source URL has no host") }
        guard !name.contains(UInt8(ascii: "%")) else { throw .badURL("the source's host is percent-encoded") }
        guard name.allSatisfy(ASCII.isHostCharacter) else {
            throw .badURL(
                "the source's host \(String(decoding: name, as: UTF8.self)) holds characters a host name may not "
                    + "(give an international name in its xn-- form)"
            )
        }
        guard name.first != UInt8(ascii: "."), name.last != UInt8(ascii: "."),
            !zip(name, name.dropFirst()).contains(where: { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: ".") })
        else {
            throw .badURL("the source's host \(String(decoding: name, as: UTF8.self)) has an empty label")
        }
        // A host name unless its last label is a number.
        let lastLabel = name[((name.lastIndex(of: UInt8(ascii: ".")) ?? start - 1) + 1)...]
        guard number(lastLabel) != nil else { return }
        let address = try ipv4(name.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false))
        output.removeSubrange(start...)
        for index in 0..<4 {
            if index > 0 { output.append(UInt8(ascii: ".")) }
            ASCII.appendDecimal(Int((address >> (8 * (3 - index))) & 0xFF), to: &output)
        }
    }

    /// The address of a host the URL standard's IPv4 parser reads as one (its last label is a
    /// number).
    private static func ipv4(_ labels: [ArraySlice<UInt8>]) throws(ServiceError) -> UInt64 {
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
        return address
    }

    /// A label read as the URL standard reads IPv4 parts: decimal, octal with a leading 0, or
    /// hexadecimal with 0x; `nil` when it is not a number. The label is lower-case already.
    private static func number(_ label: ArraySlice<UInt8>) -> UInt64? {
        var digits = label, radix: UInt64 = 10
        if digits.count >= 2, digits[digits.startIndex] == UInt8(ascii: "0"),
            digits[digits.startIndex + 1] == UInt8(ascii: "x")
        {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.first == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        if digits.isEmpty { return radix == 16 ? 0 : nil }
        // No cap on the length: a long run of leading zeros is still a number (the C library's
        // `inet_aton` reads 40 zeros as 0.0.0.0), and a value too large is UInt64.max, out of range.
        var value: UInt64 = 0
        for character in digits {
            let digit = ASCII.hexValue(character)
            guard digit != ASCII.notHex, UInt64(digit) < radix else { return nil }
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
        return String(
            decoding: buffer.prefix { $0 != 0 }.map { ASCII.lowercased(UInt8(bitPattern: $0)) }, as: UTF8.self)
    }

    // MARK: Path and query

    /// Appends `bytes` with escapes of unreserved characters decoded, the other escapes
    /// upper-cased, and what may not stand raw encoded. In a path, an encoded `/` or `\` is
    /// refused: no canonical form keeps its meaning for every server.
    private static func appendNormalizedEscapes(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>, in part: StaticString,
        refusesEncodedSlashes: Bool, to output: inout [UInt8]
    ) throws(ServiceError) {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, case let high = ASCII.hexValue(bytes[index + 1]),
                    case let low = ASCII.hexValue(bytes[index + 2]), high != ASCII.notHex, low != ASCII.notHex
                else {
                    throw .badURL("the source's \(part) has a % that does not start an escape")
                }
                let decoded = high << 4 | low
                if refusesEncodedSlashes, decoded == UInt8(ascii: "/") || decoded == UInt8(ascii: "\\") {
                    throw .badURL("the source's path holds an encoded / or \\ (%2F or %5C)")
                }
                guard decoded >= 0x20, decoded != 0x7F else {
                    throw .badURL("the source's \(part) holds an encoded control character")
                }
                if ASCII.isUnreserved(decoded) {
                    output.append(decoded)
                } else {
                    ASCII.appendEscape(decoded, to: &output)
                }
                index += 3
            } else {
                if ASCII.mayStandRaw(byte) { output.append(byte) } else { ASCII.appendEscape(byte, to: &output) }
                index += 1
            }
        }
    }

    /// RFC 3986, 5.2.4, on the absolute path at `output[start...]`, in place: each kept segment
    /// is written as `/` and the segment, never past where it is read from.
    private static func removeDotSegments(in output: inout [UInt8], from start: Int) {
        let end = output.count
        var write = start
        var kept = 0
        var read = start + 1
        while true {
            var next = read
            while next < end, output[next] != UInt8(ascii: "/") { next += 1 }
            let isLast = next == end
            let length = next - read
            let isDot = length == 1 && output[read] == UInt8(ascii: ".")
            let isDotDot = length == 2 && output[read] == UInt8(ascii: ".") && output[read + 1] == UInt8(ascii: ".")
            if isDot || isDotDot {
                if isDotDot, kept > 0 {
                    // Back to the `/` that starts the last kept segment.
                    write -= 1
                    while output[write] != UInt8(ascii: "/") { write -= 1 }
                    kept -= 1
                }
                if isLast {
                    output[write] = UInt8(ascii: "/")
                    write += 1
                    kept += 1
                }
            } else {
                output[write] = UInt8(ascii: "/")
                for offset in 0..<length { output[write + 1 + offset] = output[read + offset] }
                write += 1 + length
                kept += 1
            }
            if isLast { break }
            read = next + 1
        }
        output.removeSubrange(write..<end)
    }
}
