import Crypto
import Foundation

/// Signs and checks service URLs: the signature is base64url (no padding) of
/// HMAC-SHA256(key, salt ‖ path), where path is everything after the signature segment
/// (`/{options}/{source}[.{ext}]`), the scheme imgproxy uses.
///
/// Thread-safe (immutable).
public struct URLSigner: Sendable {
    private let key: [UInt8]
    private let salt: [UInt8]

    /// Creates a signer from raw key and salt bytes. The key must not be empty.
    public init(key: [UInt8], salt: [UInt8]) throws(ServiceError) {
        guard !key.isEmpty else { throw .internal("the signing key is empty") }
        self.key = key
        self.salt = salt
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
        guard let given = Base64URL.decode(signature) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(
            given, authenticating: salt + Array(path.utf8), using: SymmetricKey(data: key))
    }

    private func mac(_ path: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: salt + Array(path.utf8), using: SymmetricKey(data: key)))
    }

    /// Decodes a hex string (even length, 0-9a-fA-F); `nil` otherwise.
    public static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
