/// base64url (RFC 4648 §5) without padding, as service URLs carry sources and signatures.
///
/// Works on bytes with ASCII tables (it is on every request's path): no Foundation, no Unicode
/// properties. Thread-safe (stateless).
public enum Base64URL {
    /// Encodes bytes: `+` → `-`, `/` → `_`, no `=`.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.underestimatedCount * 4 / 3 + 3)
        var group: UInt32 = 0
        var count = 0
        let alphabet = Self.alphabet
        for byte in bytes {
            group = group << 8 | UInt32(byte)
            count += 1
            if count == 3 {
                for shift in [18, 12, 6, 0] as [UInt32] { output.append(alphabet[Int(group >> shift & 63)]) }
                group = 0
                count = 0
            }
        }
        if count > 0 {
            // The last one or two bytes: 2 or 3 characters, the missing bits zero.
            group <<= 8 * UInt32(3 - count)
            for shift in ([18, 12, 6] as [UInt32]).prefix(count + 1) {
                output.append(alphabet[Int(group >> shift & 63)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64url with or without padding; `nil` when it is not base64url.
    public static func decode(_ string: String) -> [UInt8]? {
        var string = string
        return string.withUTF8 { decode(bytes: $0) }
    }

    /// Decodes the base64url characters of `text` (UTF-8), with or without padding; `nil` when
    /// it is not base64url. Every `=` is skipped wherever it stands, as padding.
    static func decode(bytes text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var count = 0
        let output = [UInt8](unsafeUninitializedCapacity: text.count * 3 / 4 + 1) { buffer, initialized in
            count = decode(bytes: text, into: buffer) ?? -1
            initialized = max(count, 0)
        }
        return count < 0 ? nil : output
    }

    /// Decodes `text` as ``decode(bytes:)`` does into `output`, which holds at least
    /// `text.count * 3 / 4 + 1` bytes; the number of bytes written, or `nil` when `text` is not
    /// base64url.
    static func decode(bytes text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        var written = 0
        var group: UInt32 = 0
        var count = 0
        // The table is read through a pointer: every byte indexes one of its 256 entries, so no
        // per-character bounds check is needed (and the lazy global is checked once).
        let complete = Self.values.withUnsafeBufferPointer { values -> Bool in
            for character in text {
                let value = values[Int(character)]
                if value == padding { continue }
                guard value != invalid else { return false }
                group = group << 6 | UInt32(value)
                count += 1
                if count == 4 {
                    output[written] = UInt8(truncatingIfNeeded: group >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: group)
                    written += 3
                    group = 0
                    count = 0
                }
            }
            return true
        }
        guard complete else { return nil }
        switch count {
        case 0: break
        case 2:
            output[written] = UInt8(truncatingIfNeeded: group >> 4)
            written += 1
        case 3:
            output[written] = UInt8(truncatingIfNeeded: group >> 10)
            output[written + 1] = UInt8(truncatingIfNeeded: group >> 2)
            written += 2
        default: return nil  // one character alone holds no byte
        }
        return written
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let invalid: UInt8 = 0xFF
    private static let padding: UInt8 = 0xFE

    /// Each byte's 6-bit value, ``padding`` for `=`, ``invalid`` for anything else.
    private static let values: [UInt8] = {
        var values = [UInt8](repeating: invalid, count: 256)
        for (index, character) in alphabet.enumerated() { values[Int(character)] = UInt8(index) }
        values[Int(UInt8(ascii: "="))] = padding
        return values
    }()
}
