import Foundation

/// The colour tests' images and their Little CMS references, made by `scripts/colour-fixtures`
/// (`make colour-fixtures`) into `$COMET_COLOUR_FIXTURES`, else `.build/colour-fixtures`.
public struct ColorFixtures: Sendable {
    /// One line of `manifest.tsv`: a file, its sRGB reference, its raw numbers and what a
    /// correct decoder does with it.
    public struct Case: Sendable, CustomStringConvertible {
        /// The image, relative to the fixtures folder.
        public let file: String
        /// The sRGB reference decode (PPM or PAM), computed by Little CMS from the same file.
        public let reference: String
        /// The file's numbers without colour management, or `nil` (CMYK files).
        public let raw: String?
        /// `icc-rgb`, `icc-gray`, `icc-cmyk`, `cmyk-untagged`, `png-gama-chrm`, `png-srgb-chunk`,
        /// `srgb-equivalent`, `nclx` or `malformed`.
        public let kind: String
        /// `converted`, `unchanged` or `warning-unchanged`.
        public let expectation: String
        /// The largest channel difference from the reference a correct decoder may show.
        public let tolerance: Int
        public var description: String { file }
    }

    /// The fixtures folder.
    public let root: URL
    /// Whether the folder has a manifest.
    public var isAvailable: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("manifest.tsv").path)
    }

    /// The fixtures of this test process.
    public static let current: ColorFixtures = {
        if let path = ProcessInfo.processInfo.environment["COMET_COLOUR_FIXTURES"], !path.isEmpty {
            return ColorFixtures(root: URL(fileURLWithPath: path))
        }
        return ColorFixtures(root: TestCorpus.repository.appendingPathComponent(".build/colour-fixtures"))
    }()

    /// Every case of the manifest (empty when the fixtures are missing).
    public var cases: [Case] {
        guard let text = try? String(contentsOf: root.appendingPathComponent("manifest.tsv"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 6, let tolerance = Int(fields[5]) else { return nil }
            return Case(
                file: fields[0], reference: fields[1], raw: fields[2] == "-" || fields[2].isEmpty ? nil : fields[2],
                kind: fields[3], expectation: fields[4], tolerance: tolerance)
        }
    }

    /// The bytes of a fixture file.
    public func data(_ name: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(name)) }

    /// Reads a binary PPM (P6) or PAM (P7, RGB_ALPHA or RGB) as RGBA8 pixels.
    public func pixels(_ name: String) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        try Self.readNetpbm([UInt8](data(name)))
    }

    /// Why a colour suite cannot run, or `nil` when it can.
    public var unavailabilityMessage: String {
        "needs the colour fixtures in \(root.path): `make colour-fixtures` makes them"
    }

    static func readNetpbm(_ bytes: [UInt8]) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        guard bytes.count > 3, bytes[0] == UInt8(ascii: "P") else { throw FixtureError.unreadable }
        var width = 0, height = 0, depth = 3, index = 0
        if bytes[1] == UInt8(ascii: "7") {
            guard let end = bytes.firstRange(of: Array("ENDHDR\n".utf8)) else { throw FixtureError.unreadable }
            let header = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
            for line in header.split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let value = Int(parts[1]) else { continue }
                switch parts[0] {
                case "WIDTH": width = value
                case "HEIGHT": height = value
                case "DEPTH": depth = value
                default: break
                }
            }
            index = end.upperBound
        } else if bytes[1] == UInt8(ascii: "6") {
            var fields: [Int] = []
            index = 2
            while fields.count < 3 {
                while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
                if index < bytes.count, bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                    continue
                }
                var value = 0
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                    value = value * 10 + Int(bytes[index] - 0x30)
                    index += 1
                }
                fields.append(value)
            }
            index += 1
            (width, height) = (fields[0], fields[1])
        } else {
            throw FixtureError.unreadable
        }
        guard width > 0, height > 0, depth == 3 || depth == 4, bytes.count >= index + width * height * depth else {
            throw FixtureError.unreadable
        }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            for c in 0..<depth { rgba[4 * i + c] = bytes[index + depth * i + c] }
        }
        return (width, height, rgba)
    }

    enum FixtureError: Error { case unreadable }
}
