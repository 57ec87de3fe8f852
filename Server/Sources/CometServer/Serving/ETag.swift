import Foundation

/// The service's entity tags: made from what identifies a result, and matched against
/// `If-None-Match`.
enum ETag {
    /// The strong ETag of a result identified by `parts` (its key, then what else tells its
    /// bytes apart, such as the format and the source's validator): the first 32 hex digits of
    /// the SHA-256 of the parts, one per line, quoted.
    static func make(_ parts: String...) -> String {
        "\"" + SHA256State.hexDigest(of: parts.joined(separator: "\n")).prefix(32) + "\""
    }

    /// Whether an `If-None-Match` list names `etag`, or is `*` (weak comparison, as RFC 9110
    /// asks for it).
    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        let bare = etag.hasPrefix("W/") ? etag.dropFirst(2) : Substring(etag)
        return ifNoneMatch.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || (tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)) == bare
        }
    }
}
