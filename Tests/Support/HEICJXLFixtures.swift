import Foundation

/// The HEIC and JPEG XL tests' images and their reference decodes, made by
/// `scripts/heic-jxl-fixtures` (`make heic-jxl-fixtures`: heif-enc/heif-convert, cjxl/djxl and
/// Little CMS, from crops of the corpus photos) into `$COMET_HEIC_JXL_FIXTURES`, else
/// `.build/heic-jxl-fixtures`.
public struct HEICJXLFixtures: Sendable {
    /// One line of `manifest.tsv` (its columns are described in the folder's `SOURCES.txt`).
    public struct Case: Sendable, CustomStringConvertible {
        /// The file, relative to the fixtures folder.
        public let file: String
        /// `heic` or `jxl`.
        public let format: String
        /// `decode` (decodes and matches ``reference``), `error` (fails with an error) or
        /// `no-crash` (an error or an image, never a crash).
        public let expect: String
        /// The expected decode with default options (PPM or PAM), or `nil` for damaged files.
        public let reference: String?
        /// The numbers before colour conversion, when they differ from ``reference``.
        public let raw: String?
        /// The decoded (upright) size; 0 for damaged files.
        public let width: Int, height: Int
        /// The orientation the decoder reports (EXIF's 1...8); 0 for damaged files.
        public let orientation: Int
        /// `untagged`, `srgb` or `converted`; `-` for damaged files.
        public let colour: String
        /// The largest channel difference from the reference a correct decoder may show.
        public let tolerance: Int
        /// What the file is.
        public let note: String
        public var description: String { file }
    }

    /// The fixtures folder.
    public let root: URL
    /// Whether the folder has a manifest.
    public var isAvailable: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("manifest.tsv").path)
    }

    /// The fixtures of this test process.
    public static let current: HEICJXLFixtures = {
        if let path = ProcessInfo.processInfo.environment["COMET_HEIC_JXL_FIXTURES"], !path.isEmpty {
            return HEICJXLFixtures(root: URL(fileURLWithPath: path))
        }
        return HEICJXLFixtures(root: TestCorpus.repository.appendingPathComponent(".build/heic-jxl-fixtures"))
    }()

    /// Every case of the manifest (empty when the fixtures are missing).
    public var cases: [Case] {
        guard let text = try? String(contentsOf: root.appendingPathComponent("manifest.tsv"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 11 else { return nil }
            func file(_ field: String) -> String? { field == "-" || field.isEmpty ? nil : field }
            return Case(
                file: fields[0], format: fields[1], expect: fields[2], reference: file(fields[3]), raw: file(fields[4]),
                width: Int(fields[5]) ?? 0, height: Int(fields[6]) ?? 0, orientation: Int(fields[7]) ?? 0,
                colour: fields[8], tolerance: Int(fields[9]) ?? 0, note: fields[10])
        }
    }

    /// The cases of one format (`heic` or `jxl`) that expect `expect`.
    public func cases(format: String, expect: String) -> [Case] {
        cases.filter { $0.format == format && $0.expect == expect }
    }

    /// The case of a file (nil when the manifest has none).
    public func `case`(_ file: String) -> Case? { cases.first { $0.file == file } }

    /// The bytes of a fixture file.
    public func data(_ name: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(name)) }

    /// Reads a reference (P6 PPM or P7 PAM) as RGBA8 pixels.
    public func pixels(_ name: String) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        try ColorFixtures.readNetpbm([UInt8](data(name)))
    }

    /// Why a suite that needs the fixtures cannot run.
    public var unavailabilityMessage: String {
        "needs the HEIC and JPEG XL fixtures in \(root.path): `make heic-jxl-fixtures` makes them"
    }
}
