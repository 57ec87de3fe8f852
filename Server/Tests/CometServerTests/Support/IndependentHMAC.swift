/// HMAC-SHA256 (RFC 2104 over FIPS 180-4's SHA-256) and base64url written out here, apart from
/// the server's `URLSigner` and its libcrypto: the conformance suite signs its URLs with this, so
/// that a signature the server accepts is proved against an implementation it does not share.
/// Checked against RFC 4231's vectors (`HMACVectorTests`). Thread-safe (pure functions).
enum IndependentHMAC {
    /// The signature imgproxy's "Signing a URL" guide describes: base64url without padding of
    /// the first `size` bytes of HMAC-SHA256(`key`, `salt` ‖ `path`).
    static func signature(key: [UInt8], salt: [UInt8], path: String, size: Int = 32) -> String {
        base64URL(Array(mac(key: key, message: salt + Array(path.utf8)).prefix(size)))
    }

    /// HMAC-SHA256(`key`, `message`).
    static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? sha256(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = sha256(block.map { $0 ^ 0x36 } + message)
        return sha256(block.map { $0 ^ 0x5C } + inner)
    }

    /// Base64url (RFC 4648 §5) without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for byte in chunk { value = value << 8 | Int(byte) }
            value <<= 8 * (3 - chunk.count)
            for position in 0...chunk.count { output.append(alphabet[(value >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Base64url with `=` padding to a multiple of four characters.
    static func paddedBase64URL(_ bytes: [UInt8]) -> String {
        let text = base64URL(bytes)
        return text + String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
    }

    /// Bytes from a hex string (even length).
    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
        }
    }

    /// Lower-case hex of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0 >> 4, radix: 16) + String($0 & 15, radix: 16) }.joined()
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// SHA-256 of `message`.
    static func sha256(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        var padded = message + [0x80]
        padded += [UInt8](repeating: 0, count: (56 - padded.count % 64 + 64) % 64)
        let bitCount = UInt64(message.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bitCount >> shift))
        }
        func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value >> count | value << (32 - count) }
        for blockStart in stride(from: 0, to: padded.count, by: 64) {
            var words = [UInt32](repeating: 0, count: 64)
            for index in 0..<16 {
                let offset = blockStart + 4 * index
                words[index] =
                    UInt32(padded[offset]) << 24 | UInt32(padded[offset + 1]) << 16 | UInt32(padded[offset + 2]) << 8
                    | UInt32(padded[offset + 3])
            }
            for index in 16..<64 {
                let s0 = rotate(words[index - 15], 7) ^ rotate(words[index - 15], 18) ^ words[index - 15] >> 3
                let s1 = rotate(words[index - 2], 17) ^ rotate(words[index - 2], 19) ^ words[index - 2] >> 10
                words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (
                state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
            )
            for index in 0..<64 {
                let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                let choice = (e & f) ^ (~e & g)
                let temp1 = h &+ sum1 &+ choice &+ roundConstants[index] &+ words[index]
                let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let temp2 = sum0 &+ majority
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
            }
            for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] = state[index] &+ value }
        }
        return state.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> $0) } }
    }
}
