/// Signs and checks service URLs: the signature is base64url (no padding) of
/// HMAC-SHA256(key, salt ‖ path), where path is everything after the signature segment
/// (`/{options}/{source}[.{ext}]`), the scheme imgproxy uses.
///
/// HMAC (RFC 2104) is computed here over the system libcrypto's SHA-256, whose states are plain
/// values: the key's two padded blocks (and the salt) are hashed once, when the signer is made,
/// and each check copies those states and hashes the path alone. Thread-safe (immutable).
public struct URLSigner: Sendable {
    /// SHA-256 after `key ⊕ ipad` and the salt.
    private let inner: SHA256State
    /// SHA-256 after `key ⊕ opad`.
    private let outer: SHA256State

    /// Creates a signer from raw key and salt bytes. The key must not be empty.
    public init(key: [UInt8], salt: [UInt8]) throws(ServiceError) {
        guard !key.isEmpty else { throw .internal("the signing key is empty") }
        let blockSize = SHA256State.blockByteCount
        var block = key.count > blockSize ? key.withUnsafeBytes(SHA256State.digest(of:)) : key
        block += [UInt8](repeating: 0, count: blockSize - block.count)
        var inner = SHA256State()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(salt)
        var outer = SHA256State()
        outer.update(block.map { $0 ^ 0x5C })
        self.inner = inner
        self.outer = outer
    }

    /// Creates a signer from hex strings (as `COMET_KEY` and `COMET_SALT` hold them).
    public init(hexKey: String, hexSalt: String) throws(ServiceError) {
        guard let key = Self.bytes(hex: hexKey), let salt = Self.bytes(hex: hexSalt) else {
            throw .internal("COMET_KEY and COMET_SALT must be hex strings")
        }
        try self.init(key: key, salt: salt)
    }

    /// The signature of `path` (`/{options}/{source}[.{ext}]`).
    public func signature(for path: String) -> String {
        Base64URL.encode(mac(path))
    }

    /// Whether `signature` is the signature of `path`, compared in constant time.
    public func isValid(_ signature: String, for path: String) -> Bool {
        var path = path
        return isValid(signature) { hash in
            path.withUTF8 { hash.update($0) }
        }
    }

    /// Whether `signature` is the signature of the path that `hashPath` feeds to the inner hash
    /// (in pieces, so that no caller joins the path into one string first).
    func isValid(_ signature: String, hashPath: (inout SHA256State) -> Void) -> Bool {
        var signature = signature
        let byteCount = SHA256State.digestByteCount
        return signature.withUTF8 { text in
            // base64url of 32 bytes is 43 characters; decoding longer text could overrun `given`.
            guard text.count <= 44 else { return false }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 33) { given in
                guard Base64URL.decode(bytes: text, into: given) == byteCount else { return false }
                var innerHash = inner
                hashPath(&innerHash)
                var outerHash = outer
                innerHash.finalize { outerHash.update($0) }
                return outerHash.finalize { expected in
                    // Constant time: every byte is compared, whatever the first difference.
                    var difference: UInt8 = 0
                    for index in 0..<byteCount { difference |= expected[index] ^ given[index] }
                    return difference == 0
                }
            }
        }
    }

    /// HMAC-SHA256(key, salt ‖ path).
    private func mac(_ path: String) -> [UInt8] {
        var innerHash = inner
        innerHash.update(path)
        var outerHash = outer
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
