import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The on-disk format of one ``DataCache`` entry and the POSIX calls that read and write it.
///
/// A file is a 16-byte header, then the key, then the data:
///
/// | bytes | content                                   |
/// |-------|-------------------------------------------|
/// | 4     | magic "CMT1"                              |
/// | 4     | key length *k* in bytes, little endian    |
/// | 8     | data length *n* in bytes, little endian   |
/// | *k*   | the key, UTF-8                            |
/// | *n*   | the data                                  |
///
/// A reader accepts a file only when the magic matches, the file is exactly 16 + *k* + *n* bytes
/// long (so a file truncated by a crash or a full disk is rejected) and the stored key equals the
/// requested one (so a filename collision never serves another key's data). There is no checksum
/// of the data itself: files are written once to a temporary name and renamed, never modified.
enum DataCacheFile {
    static let headerSize = 16
    private static let magic: [UInt8] = Array("CMT1".utf8)
    /// Temporary files (being written, or left behind by a crash) start with this prefix.
    static let temporaryPrefix = ".comet-tmp-"

    enum ReadResult {
        /// The entry's data.
        case hit(Data)
        /// No file.
        case absent
        /// A valid entry for another key (a filename collision).
        case otherKey
        /// A damaged file, identified so that only this very file is removed later.
        case corrupt(FileIdentity)
    }

    /// Device and inode: which file a path named when it was read.
    struct FileIdentity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// Whether `name` can be a cache file's name (a generator may return anything).
    static func isValidFilename(_ name: String) -> Bool {
        let bytes = name.utf8
        return !bytes.isEmpty && bytes.count <= 255 && name != "." && name != ".."
            && !bytes.contains(where: { $0 == UInt8(ascii: "/") || $0 == 0 })
            && !name.hasPrefix(temporaryPrefix)
    }

    // MARK: Reading

    /// Reads the entry for `key` at `path`. With `touch`, a hit sets the file's access and
    /// modification times to now: the disk cache's LRU clock.
    static func read(key: String, at path: String, touch: Bool) -> ReadResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .absent }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .absent }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        guard let (keyLength, dataLength) = readHeader(fd, fileSize: Int(info.st_size)) else {
            return .corrupt(identity)
        }
        let keyBytes = Array(key.utf8)
        guard keyBytes.count == keyLength else { return .otherKey }
        var storedKey = [UInt8](repeating: 0, count: keyLength)
        guard readFully(fd, into: &storedKey, at: headerSize) else { return .corrupt(identity) }
        guard storedKey == keyBytes else { return .otherKey }
        var data = Data(count: dataLength)
        let complete = data.withUnsafeMutableBytes { buffer in
            readFully(fd, into: buffer, at: headerSize + keyLength)
        }
        guard complete else { return .corrupt(identity) }
        if touch { _ = futimens(fd, nil) }
        return .hit(data)
    }

    /// What the file at `path` holds, from its header and key only (the data is not read).
    enum Inspection {
        case absent
        case entry(forKey: Bool)
        case corrupt
    }

    /// Reads the header and key of the file at `path` and compares the key with `key`.
    static func inspect(_ path: String, key: String) -> Inspection {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .absent }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .absent }
        guard let (keyLength, _) = readHeader(fd, fileSize: Int(info.st_size)) else { return .corrupt }
        let keyBytes = Array(key.utf8)
        guard keyBytes.count == keyLength else { return .entry(forKey: false) }
        var storedKey = [UInt8](repeating: 0, count: keyLength)
        guard readFully(fd, into: &storedKey, at: headerSize) else { return .corrupt }
        return .entry(forKey: storedKey == keyBytes)
    }

    /// The key and data lengths, when the header is well-formed and matches the file size.
    private static func readHeader(_ fd: Int32, fileSize: Int) -> (keyLength: Int, dataLength: Int)? {
        guard fileSize >= headerSize else { return nil }
        var header = [UInt8](repeating: 0, count: headerSize)
        guard readFully(fd, into: &header, at: 0), header[0..<4].elementsEqual(magic) else { return nil }
        var keyLength = 0
        for i in 0..<4 { keyLength |= Int(header[4 + i]) << (8 * i) }
        var dataLength: UInt64 = 0
        for i in 0..<8 { dataLength |= UInt64(header[8 + i]) << UInt64(8 * i) }
        guard dataLength <= UInt64(Int.max - headerSize - keyLength),
            headerSize + keyLength + Int(dataLength) == fileSize
        else { return nil }
        return (keyLength, Int(dataLength))
    }

    private static func readFully(_ fd: Int32, into bytes: inout [UInt8], at offset: Int) -> Bool {
        bytes.withUnsafeMutableBytes { readFully(fd, into: $0, at: offset) }
    }

    private static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    // MARK: Writing

    /// Writes the entry for `key` to `directory/filename` atomically: into a temporary file in
    /// the same directory, then `rename(2)` over the final name, so a reader sees either the old
    /// file or the complete new one. Recreates `directory` when it is missing. No `fsync`: a
    /// crash may leave a short or empty file, which the length check in the header rejects.
    static func store(_ data: Data, key: String, directory: String, filename: String) throws(POSIXError) {
        let temporaryPath = directory + "/" + temporaryPrefix + UUID().uuidString
        var fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0, errno == ENOENT {
            try createDirectory(directory)
            fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { throw lastError() }
        var prefix = magic
        let keyBytes = Array(key.utf8)
        for i in 0..<4 { prefix.append(UInt8(truncatingIfNeeded: keyBytes.count >> (8 * i))) }
        for i in 0..<8 { prefix.append(UInt8(truncatingIfNeeded: UInt64(data.count) >> UInt64(8 * i))) }
        prefix += keyBytes
        let written = prefix.withUnsafeBytes { writeFully(fd, $0) } && data.withUnsafeBytes { writeFully(fd, $0) }
        let error = lastError()
        close(fd)
        guard written else {
            unlink(temporaryPath)
            throw error
        }
        guard rename(temporaryPath, directory + "/" + filename) == 0 else {
            let error = lastError()
            unlink(temporaryPath)
            throw error
        }
    }

    private static func writeFully(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < buffer.count {
            let n = write(fd, buffer.baseAddress! + done, buffer.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Creates `path` and its missing parents (like `mkdir -p`).
    static func createDirectory(_ path: String) throws(POSIXError) {
        if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
        guard errno == ENOENT else { throw lastError() }
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { throw lastError() }
        let parent = String(path[..<slash])
        try createDirectory(parent)
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw lastError() }
    }

    // MARK: Removing

    /// Removes the file at `path` if it is still the file `identity` names (a newer file written
    /// at the same path since is kept).
    static func remove(_ path: String, ifStill identity: FileIdentity) {
        var info = stat()
        guard stat(path, &info) == 0,
            FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) == identity
        else { return }
        unlink(path)
    }

    /// The error `errno` holds now.
    private static func lastError() -> POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
