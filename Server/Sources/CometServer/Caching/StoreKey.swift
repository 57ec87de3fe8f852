/// The keys of a ``SharedResultStoring``: `comet:v1:` and the lowercase hex SHA-256 of what
/// identifies an answer (a thumbnail's options, format and source; an `/info` answer's). The
/// version changes when the stored format does, so a new server never reads an old entry.
enum StoreKey {
    /// What every key starts with.
    static let prefix = "comet:v1:"

    /// The key of what `hash` has hashed.
    static func make(_ hash: consuming SHA256State) -> String { hash.finalizeHex(after: prefix) }

    /// A key's hex digest, without ``prefix``.
    static func digest(of key: String) -> String { String(key.dropFirst(prefix.utf8.count)) }
}
