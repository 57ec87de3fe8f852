import CLibCrypto

/// A SHA-256 computation in progress, as a plain value: OpenSSL's `SHA256_CTX` held inline.
///
/// Copying a state forks the computation, which is how ``URLSigner`` reuses its precomputed HMAC
/// states: a copy costs a 112-byte move, with no allocation. Uses the CPU's SHA extensions when it
/// has them (libcrypto picks its code at run time). Thread-safe as a value: each copy is
/// independent.
struct SHA256State {
    /// The size of a digest in bytes.
    static let digestByteCount = 32
    /// The size of the blocks the function compresses, in bytes (HMAC pads its key to it).
    static let blockByteCount = 64

    private var context = SHA256_CTX()

    /// A state that has hashed nothing yet.
    init() {
        SHA256_Init(&context)
    }

    /// Hashes `bytes` into the state.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        SHA256_Update(&context, base, bytes.count)
    }

    /// Hashes `bytes` into the state.
    mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        update(UnsafeRawBufferPointer(bytes))
    }

    /// Hashes `bytes` into the state.
    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Hashes `text`'s UTF-8 bytes into the state (in place when the string is contiguous, as
    /// native strings are).
    mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Ends the computation and gives its digest to `body` (32 bytes, valid during the call).
    consuming func finalize<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.digestByteCount) { digest in
            SHA256_Final(digest.baseAddress!, &context)
            return body(UnsafeRawBufferPointer(digest))
        }
    }

    /// Ends the computation and gives its digest as lowercase hex after `prefix` (64 digits),
    /// written straight into the string's storage: the one hex spelling of the server's digests
    /// (store keys, ETags, validators, watermark names).
    consuming func finalizeHex(after prefix: String = "") -> String {
        let prefix = prefix.utf8
        return finalize { digest in
            String(unsafeUninitializedCapacity: prefix.count + 2 * digest.count) { text in
                var index = text.initialize(fromContentsOf: prefix)
                for byte in digest {
                    text[index] = ASCII.lowerHexDigit(byte >> 4)
                    text[index + 1] = ASCII.lowerHexDigit(byte & 0x0F)
                    index += 2
                }
                return index
            }
        }
    }

    /// The lowercase hex digest of `bytes`, in one call.
    static func hexDigest(of bytes: some Sequence<UInt8>) -> String {
        var state = SHA256State()
        let hashed = bytes.withContiguousStorageIfAvailable { state.update($0) }
        if hashed == nil { state.update(Array(bytes)) }
        return state.finalizeHex()
    }

    /// The lowercase hex digest of `text`'s UTF-8 bytes, in one call.
    static func hexDigest(of text: String) -> String {
        var state = SHA256State()
        state.update(text)
        return state.finalizeHex()
    }

    /// The digest of `bytes`, in one call.
    static func digest(of bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var state = SHA256State()
        state.update(bytes)
        return state.finalize { [UInt8]($0) }
    }
}
