import CometServer
import Foundation

/// SplitMix64: a tiny seeded generator, so that a property test draws the same cases on every
/// run and a failure names a case that can be drawn again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// Random service paths in imgproxy's grammar, drawn over ``ThumbnailOptions/table``: short and
/// long names, arguments valid and not (taken from each option's example and syntax, numbers,
/// empty ones, junk), repeated options, percent-escaped option text, and sources written
/// `plain/` (raw or percent-encoded, `@extension`) or as base64url (split over segments,
/// padded or not, `.extension`). Most paths are refused; the property tests keep the others.
struct RandomServiceURLs {
    var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// Source URLs with a canonical form, in spellings that are not all canonical.
    static let sources = [
        "http://example.com/a.jpg", "https://img.example.com/photos/cat.png?w=1&h=2",
        "HTTP://Example.COM:80/a/./b/../c.webp", "https://example.com:8443/x%41y/%7e.jpg",
        "http://h.example./a%2e%2e/b.gif", "http://127.1/a.png", "http://0x7f.0.0.1:8080/",
        "http://[::FFFF:127.0.0.1]/a.jpg", "https://cdn.example.com/a%20b.jpg#frag",
        "http://example.com", "https://example.com/a.jpg?p=/x/../y&q=%2f", "http://10.1.2.3./p",
        "http://xn--bcher-kva.example/a.jpg", "https://example.com/a@b.jpg",
        "http://example.com/%E2%82%AC.png", "http://example.com/a|b.jpg",
    ]

    /// Sources refused whatever the spelling around them.
    static let refusedSources = [
        "ftp://example.com/a.jpg", "http://user@example.com/a.jpg", "http://h/a%2Fb.jpg", "http://h/a b.jpg",
        "http:/example.com/a.jpg", "http://256.0.0.1/", "http://[::1/", "http://h:0/",
    ]

    private static let numbers = [
        "0", "1", "2", "5", "10", "80", "100", "101", "256", "300", "4096", "4097", "0.5", "0.25", "1.5", "-1", "-30",
        "1e3", "1e309", "nan", "inf", "0x10", "+5", "00", "007", "99999999999999999999", "",
    ]
    private static let words = [
        "fit", "fill", "fill-down", "force", "auto", "sm", "ce", "no", "so", "ea", "we", "noea", "nowe", "soea",
        "sowe", "fp", "re", "jpeg", "jpg", "png", "webp", "avif", "gif", "bmp", "ffffff", "f00", "0080ff", "FFF",
        "v2", "cat-portrait", "0LrQvtGC", "t", "true", "x", "é", "a.b", "~",
    ]
    private static let extensions = ["jpg", "jpeg", "png", "webp", "avif", "gif", "JPG", "PNG", "bmp", ""]
    private static let accepts: [String?] = [nil, "*/*", "image/webp,*/*", "image/avif,image/webp,*/*", "text/html"]

    /// The tokens of an option's syntax (`{fit|fill}:{w}` gives `fit`, `fill`, `w`).
    private static func syntaxTokens(_ option: ThumbnailOption) -> [String] {
        option.syntax.split(whereSeparator: { "{}[]:|…, ".contains($0) }).map(String.init)
    }

    /// One random service URL: its signed part (from its `/`) and an `Accept` value.
    mutating func next() -> (signedPart: String, accept: String?) {
        var segments: [String] = []
        var previous: String?
        for _ in 0..<Int.random(in: 0...5, using: &generator) {
            let option: String
            if let repeated = previous, Int.random(in: 0..<6, using: &generator) == 0 {
                option = repeated  // the same option again, other arguments: the later wins
            } else if Int.random(in: 0..<40, using: &generator) == 0 {
                option = ["pr", "zz", "", "preset"].randomElement(using: &generator)!
            } else {
                let entry = ThumbnailOptions.table.randomElement(using: &generator)!
                option = Bool.random(using: &generator) ? entry.name : entry.longName
            }
            previous = option
            segments.append(escapingSomeBytes(option + ":" + arguments(for: option).joined(separator: ":")))
        }
        var path = segments.map { "/" + $0 }.joined()
        path += source()
        return (path, Self.accepts.randomElement(using: &generator)!)
    }

    /// Arguments for the option named `name`: mostly its example's (some changed), else drawn.
    private mutating func arguments(for name: String) -> [String] {
        let entry = ThumbnailOptions.table.first { $0.name == name || $0.longName == name }
        var arguments =
            entry.map { Array($0.example.split(separator: ":", omittingEmptySubsequences: false).dropFirst()) }
            .map { $0.map(String.init) } ?? ["x"]
        let tokens = entry.map(Self.syntaxTokens) ?? []
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            break  // the example as it is: valid
        case 1 where !arguments.isEmpty:
            let index = Int.random(in: 0..<arguments.count, using: &generator)
            arguments[index] = draw(tokens)
        case 2:
            arguments = (0..<Int.random(in: 0...5, using: &generator)).map { _ in draw(tokens) }
        default:
            if Bool.random(using: &generator) {
                arguments.removeLast(Int.random(in: 0...arguments.count, using: &generator))
            } else {
                arguments.append(draw(tokens))
            }
        }
        return arguments
    }

    private mutating func draw(_ tokens: [String]) -> String {
        switch Int.random(in: 0..<3, using: &generator) {
        case 0 where !tokens.isEmpty: return tokens.randomElement(using: &generator)!
        case 1: return Self.words.randomElement(using: &generator)!
        default: return Self.numbers.randomElement(using: &generator)!
        }
    }

    /// `text` for a path segment, now and then with one byte percent-escaped (the parser decodes
    /// option segments once).
    private mutating func escapingSomeBytes(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let escaped =
            Int.random(in: 0..<5, using: &generator) == 0
            ? Int.random(in: 0..<max(bytes.count, 1), using: &generator) : -1
        var output = ""
        for (index, byte) in bytes.enumerated() {
            let raw = index != escaped && byte > 0x20 && byte < 0x7F && !"%?#/".utf8.contains(byte)
            if raw {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += String(format: "%%%02X", byte)
            }
        }
        return output
    }

    /// `/plain/…` or base64url segments, with or without an extension.
    private mutating func source() -> String {
        let pool = Int.random(in: 0..<8, using: &generator) == 0 ? Self.refusedSources : Self.sources
        let url = pool.randomElement(using: &generator)!
        let fileExtension =
            Bool.random(using: &generator) ? nil : Self.extensions.randomElement(using: &generator)!
        if Bool.random(using: &generator) {
            let spelled = Bool.random(using: &generator) ? Self.plainRaw(url) : Self.percentEncoded(url)
            return "/plain/" + spelled + (fileExtension.map { "@" + $0 } ?? "")
        }
        var encoded = Base64URL.encode(Array(url.utf8))
        if Bool.random(using: &generator) {
            while encoded.utf8.count % 4 != 0 { encoded += "=" }
        }
        var pieces: [String] = []
        var rest = Substring(encoded)
        while rest.count > 1, Int.random(in: 0..<3, using: &generator) == 0 {
            let cut = Int.random(in: 1..<rest.count, using: &generator)
            pieces.append(String(rest.prefix(cut)))
            rest = rest.dropFirst(cut)
        }
        pieces.append(String(rest))
        return "/" + pieces.joined(separator: "/") + (fileExtension.map { "." + $0 } ?? "")
    }

    /// `url` as a `plain/` source written raw: only what the path would read otherwise is
    /// escaped (`%`, `?`, `#`, `@`, and bytes a request line may not hold).
    static func plainRaw(_ url: String) -> String {
        escaping(url) { $0 > 0x20 && $0 < 0x7F && !"%?#@".utf8.contains($0) }
    }

    /// `url` with every byte but the unreserved ones percent-encoded.
    static func percentEncoded(_ url: String) -> String {
        escaping(url) { $0 < 0x80 && (isalnum(Int32($0)) != 0 || "-._~".utf8.contains($0)) }
    }

    private static func escaping(_ text: String, keeping keeps: (UInt8) -> Bool) -> String {
        var output = ""
        for byte in text.utf8 {
            if keeps(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += String(format: "%%%02X", byte)
            }
        }
        return output
    }
}
