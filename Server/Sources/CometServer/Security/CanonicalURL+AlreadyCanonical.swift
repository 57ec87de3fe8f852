// Recognising a spelling the rules would leave as it is, so that the usual source skips them
// (`CanonicalURL.canonicalString(_:)` over bytes asks this first).
extension CanonicalURL {
    /// Whether `input` is a URL that ``canonicalBytes(_:)`` would give back unchanged, decided in
    /// one pass without building anything. Conservative: `false` sends a URL through the full
    /// rules, so it answers `true` only for the plain spelling most sources have: `http://` or
    /// `https://`, a lower-case host name of `a–z 0–9 - .` whose last label starts with a letter,
    /// an optional port that is not the default, then a path that starts with `/`, and a query,
    /// with no escape, no dot segment and nothing that may not stand raw.
    static func isCanonical(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = input.count
        var index: Int
        let isHTTPS: Bool
        if count > 8, input[4] == UInt8(ascii: "s"), input[5] == UInt8(ascii: ":") {
            index = 8
            isHTTPS = true
        } else if count > 7, input[4] == UInt8(ascii: ":") {
            index = 7
            isHTTPS = false
        } else {
            return false
        }
        guard input[0] == UInt8(ascii: "h"), input[1] == UInt8(ascii: "t"), input[2] == UInt8(ascii: "t"),
            input[3] == UInt8(ascii: "p"), input[index - 2] == UInt8(ascii: "/"), input[index - 1] == UInt8(ascii: "/")
        else { return false }

        // The host: labels of a–z 0–9 -, none empty, the last one starting with a letter (a
        // label starting with a digit may make the host an IPv4 address, which is rewritten).
        var labelStart = index
        while index < count, input[index] != UInt8(ascii: "/"), input[index] != UInt8(ascii: ":") {
            let byte = input[index]
            if byte == UInt8(ascii: ".") {
                guard index > labelStart else { return false }
                labelStart = index + 1
            } else if !(byte &- UInt8(ascii: "a") < 26 || ASCII.isDigit(byte) || byte == UInt8(ascii: "-")) {
                return false
            }
            index += 1
        }
        guard index > labelStart, input[labelStart] &- UInt8(ascii: "a") < 26 else { return false }

        if index < count, input[index] == UInt8(ascii: ":") {
            index += 1
            let digitsStart = index
            var port = 0
            while index < count, ASCII.isDigit(input[index]), index - digitsStart < 5 {
                port = port * 10 + Int(input[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index > digitsStart, input[digitsStart] != UInt8(ascii: "0"), port <= 65535,
                port != (isHTTPS ? 443 : 80)
            else { return false }
        }

        // The path, then the query: raw bytes only (an escape may need decoding or upper-casing),
        // and in the path no segment that starts with a dot and is one or two dots long.
        guard index < count, input[index] == UInt8(ascii: "/") else { return false }
        var inQuery = false
        while index < count {
            let byte = input[index]
            guard byte != UInt8(ascii: "%"), ASCII.mayStandRaw(byte) else { return false }
            if byte == UInt8(ascii: "?") {
                inQuery = true
            } else if !inQuery, byte == UInt8(ascii: "/"), index + 1 < count, input[index + 1] == UInt8(ascii: ".") {
                let next = index + 2 < count ? input[index + 2] : UInt8(ascii: "/")
                if next == UInt8(ascii: "/") || next == UInt8(ascii: ".") || next == UInt8(ascii: "?") { return false }
            }
            index += 1
        }
        return true
    }
}
