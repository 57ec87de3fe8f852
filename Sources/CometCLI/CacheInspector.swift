import Foundation

/// Lists the entries of a ``DataCache`` directory with their keys, sizes and last use.
///
/// Reads the entry header that `DataCache` writes (magic `CMT1`, 4-byte little-endian key
/// length, 8-byte data length, then the key); a file that does not match is listed without a
/// key. Temporary files (`.comet-tmp-…`) are skipped. The last use is the file's modification
/// time, which the cache sets on every read hit (its LRU clock).
struct CacheInspector {
    /// One cache file.
    struct Entry: Codable, Sendable {
        /// The file name (a SHA-256 of the key by default).
        var file: String
        /// The key stored in the file (usually the URL), when readable.
        var key: String?
        /// The file's size in bytes.
        var size: Int
        /// When the entry was last written or read.
        var lastUsed: Date
    }

    /// The cache directory.
    let directory: URL

    /// Every entry (unordered).
    func entries() -> [Entry] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { return [] }
        return names.compactMap { name in
            guard !name.hasPrefix(".") else { return nil }
            let path = directory.appendingPathComponent(name).path
            guard let attributes = try? manager.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { return nil }
            return Entry(
                file: name, key: Self.key(at: path), size: (attributes[.size] as? NSNumber)?.intValue ?? 0,
                lastUsed: attributes[.modificationDate] as? Date ?? .distantPast)
        }
    }

    /// The key in the header of the file at `path`, or `nil`.
    static func key(at path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 16), header.count == 16,
            header.prefix(4) == Data("CMT1".utf8)
        else { return nil }
        let keyLength = header[header.startIndex + 4..<header.startIndex + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard keyLength > 0, keyLength <= 1 << 16, let key = try? handle.read(upToCount: keyLength),
            key.count == keyLength
        else { return nil }
        return String(data: key, encoding: .utf8)
    }
}
