/// Signs and checks service URLs: the signature is base64url (no padding) of
/// HMAC-SHA256(key, salt ‖ path), where path is everything after the signature segment, from
/// its `/` (`/{options…}/{source}`), the scheme imgproxy uses: optionally truncated to the
/// digest's first bytes (``signatureSize``), and with several keys and salts accepted.
///
/// HMAC (RFC 2104) is computed here over the system libcrypto's SHA-256, whose states are plain
/// values: the key's two padded blocks (and the salt) are hashed once, when the signer is made,
/// and each check copies those states and hashes the path alone. Thread-safe (immutable).
public struct URLSigner: Sendable {
    /// One key and salt: SHA-256 after `key ⊕ ipad` and the salt, and after `key ⊕ opad`.
    private struct Pair: Sendable {
        var inner: SHA256State
        var outer: SHA256State
    }

    /// The pairs a signature may be made with (the first signs); several let keys be rotated.
    private let pairs: [Pair]
    /// How many bytes of the digest a signature holds: 32 (all of it) by default, fewer when
    /// truncated as imgproxy's `IMGPROXY_SIGNATURE_SIZE` truncates it.
    public let signatureSize: Int

    /// Creates a signer from raw key and salt bytes, signatures holding the first
    /// `signatureSize` (1…32) bytes of the digest. The key must not be empty.
    public init(key: [UInt8], salt: [UInt8], signatureSize: Int = 32) throws(ServiceError) {
        try self.init(pairs: [(key, salt)], signatureSize: signatureSize)
    }

    /// Creates a signer that accepts a signature made with any of `pairs` (key, salt) and signs
    /// with the first, as imgproxy accepts several keys and salts. Throws when there is no pair,
    /// a key is empty or `signatureSize` is outside 1…32.
    public init(pairs: [(key: [UInt8], salt: [UInt8])], signatureSize: Int = 32) throws(ServiceError) {
        guard !pairs.isEmpty else { throw .internal("no signing key") }
        guard (1...SHA256State.digestByteCount).contains(signatureSize) else {
            throw .internal("the signature size is 1 to \(SHA256State.digestByteCount) bytes, not \(signatureSize)")
        }
        var made: [Pair] = []
        for (key, salt) in pairs {
            guard !key.isEmpty else { throw .internal("the signing key is empty") }
            let blockSize = SHA256State.blockByteCount
            var block = key.count > blockSize ? key.withUnsafeBytes(SHA256State.digest(of:)) : key
            block += [UInt8](repeating: 0, count: blockSize - block.count)
            var inner = SHA256State()
            inner.update(block.map { $0 ^ 0x36 })
            inner.update(salt)
            var outer = SHA256State()
            outer.update(block.map { $0 ^ 0x5C })
            made.append(Pair(inner: inner, outer: outer))
        }
        self.pairs = made
        self.signatureSize = signatureSize
    }

    /// Creates a signer from hex strings (as `COMET_KEY` and `COMET_SALT` hold them). Several
    /// keys and salts may be given, `,` between them, paired in order.
    public init(hexKey: String, hexSalt: String, signatureSize: Int = 32) throws(ServiceError) {
        let keys = hexKey.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let salts = hexSalt.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard keys.count == salts.count || (salts == [""] && keys.count == 1) else {
            throw .internal("COMET_KEY and COMET_SALT must list as many keys as salts")
        }
        var pairs: [(key: [UInt8], salt: [UInt8])] = []
        for (index, key) in keys.enumerated() {
            guard let key = Self.bytes(hex: key), let salt = Self.bytes(hex: index < salts.count ? salts[index] : "")
            else {
                throw .internal("COMET_KEY and COMET_SALT must be hex strings")
            }
            pairs.append((key, salt))
        }
        try self.init(pairs: pairs, signatureSize: signatureSize)
    }

    /// The signature of `path` (`/{options…}/{source}`, everything after the signature).
    public func signature(for path: String) -> String {
        Base64URL.encode(mac(path, pairs[0]).prefix(signatureSize))
    }

    /// Whether `signature` is the signature of `path` with any of the signer's keys, compared in
    /// constant time.
    public func isValid(_ signature: String, for path: String) -> Bool {
        var path = path
        return path.withUTF8 { pathBytes in
            isValid(signature) { hash in hash.update(pathBytes) }
        }
    }

    /// Whether `signature` is the signature of the path that `hashPath` feeds to the inner hash
    /// (in pieces, so that no caller joins the path into one string first).
    func isValid(_ signature: String, hashPath: (inout SHA256State) -> Void) -> Bool {
        var signature = signature
        let size = signatureSize
        return signature.withUTF8 { text in
            // base64url of 32 bytes is 43 characters; decoding longer text could overrun `given`.
            // Unpadded only, as imgproxy decodes it: a padded signature is another spelling of
            // the URL, refused there.
            guard text.count <= 43, !text.contains(UInt8(ascii: "=")) else { return false }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 33) { given in
                guard Base64URL.decode(bytes: text, into: given) == size else { return false }
                var matches = false
                for pair in pairs {
                    var innerHash = pair.inner
                    hashPath(&innerHash)
                    var outerHash = pair.outer
                    innerHash.finalize { outerHash.update($0) }
                    matches =
                        outerHash.finalize { expected in
                            // Constant time: every byte is compared, whatever the first difference.
                            var difference: UInt8 = 0
                            for index in 0..<size { difference |= expected[index] ^ given[index] }
                            return difference == 0
                        } || matches
                }
                return matches
            }
        }
    }

    /// HMAC-SHA256(key, salt ‖ path).
    private func mac(_ path: String, _ pair: Pair) -> [UInt8] {
        var innerHash = pair.inner
        innerHash.update(path)
        var outerHash = pair.outer
        innerHash.finalize { outerHash.update($0) }
        return outerHash.finalize { [UInt8]($0) }
    }

    /// Decodes a hex string (even length, 0-9a-fA-F); `nil` otherwise.
    public static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            let high = ASCII.hexValue(digits[index]), low = ASCII.hexValue(digits[index + 1])
            guard high != ASCII.notHex, low != ASCII.notHex else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
