import Foundation

/// How ``DiskCache`` turns a key into a file name.
enum DiskCacheFilename {
    /// The longest file name, in bytes, that Linux (and macOS) accept.
    static let maximumLength = 255

    /// `key` escaped (`%` → `%25`, NUL → `%00`, `:` → `%3A`, `/` → `%2F`); when that would be
    /// `maximumLength` bytes or more, the MD5 of the key in hex plus the key's URL path extension.
    static func name(forKey key: String) -> String {
        let escaped = escaped(key)
        if escaped.utf8.count < maximumLength { return escaped }
        return md5Name(forKey: key)
    }

    /// `key` with `%` escaped first, then NUL, `:` and `/`.
    static func escaped(_ key: String) -> String {
        var result = ""
        result.reserveCapacity(key.utf8.count)
        for character in key.unicodeScalars {
            switch character {
            case "%": result += "%25"
            case "\0": result += "%00"
            case ":": result += "%3A"
            case "/": result += "%2F"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// The MD5 hex of `key`, with the path extension of `key` read as a URL when it has one.
    static func md5Name(forKey key: String) -> String {
        let hash = MD5.hex(key)
        let pathExtension = URL(string: key)?.pathExtension ?? ""
        // An extension that would make the name too long is dropped (Haneke would fail the write).
        guard !pathExtension.isEmpty, hash.utf8.count + 1 + pathExtension.utf8.count < maximumLength else {
            return hash
        }
        return hash + "." + pathExtension
    }
}
