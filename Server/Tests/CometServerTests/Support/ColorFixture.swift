import Foundation

/// The colour fixtures the root package's `make colour-fixtures` makes (`.build/colour-fixtures`
/// at the repository root, or `$COMET_COLOUR_FIXTURES`): photos with colour profiles, and Little
/// CMS's sRGB conversions of them; and the HEIC and JPEG XL files of `make heic-jxl-fixtures`
/// (`.build/heic-jxl-fixtures`) with their reference decodes.
enum ColorFixture {
    static let folder: URL = {
        if let path = ProcessInfo.processInfo.environment["COMET_COLOUR_FIXTURES"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return repository.appendingPathComponent(".build/colour-fixtures")
    }()

    /// The HEIC and JPEG XL fixtures.
    static let heicJXLFolder = repository.appendingPathComponent(".build/heic-jxl-fixtures")

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Whether the fixtures were made; CI (`COMET_REQUIRE_CORPUS=1`) requires them.
    static var isAvailable: Bool {
        let available = FileManager.default.fileExists(atPath: folder.appendingPathComponent("p3.jpg").path)
        let required = ["1", "true", "yes"].contains(ProcessInfo.processInfo.environment["COMET_REQUIRE_CORPUS"] ?? "")
        return available || required
    }

    static func bytes(_ name: String, in folder: URL = folder) -> [UInt8]? {
        (try? Data(contentsOf: folder.appendingPathComponent(name))).map { [UInt8]($0) }
    }

    /// A binary PPM (P6) fixture as RGBA8 bytes.
    static func pixels(_ name: String, in folder: URL = folder) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        guard let bytes = bytes(name, in: folder), bytes.starts(with: Array("P6".utf8)) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        var fields: [Int] = []
        var index = 2
        while fields.count < 3 {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
            var value = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            fields.append(value)
        }
        index += 1
        let (width, height) = (fields[0], fields[1])
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            for c in 0..<3 { rgba[4 * i + c] = bytes[index + 3 * i + c] }
        }
        return (width, height, rgba)
    }
}
