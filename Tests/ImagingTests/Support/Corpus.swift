import Foundation

/// The shared test images (`../shared/corpus` next to the repository, or `$COMET_CORPUS`).
enum Corpus {
    static let root: URL = {
        if let path = ProcessInfo.processInfo.environment["COMET_CORPUS"] {
            return URL(fileURLWithPath: path)
        }
        // Tests/ImagingTests/Support/Corpus.swift → repository root → ../shared/corpus
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("shared/corpus")
    }()

    static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    static func data(_ relativePath: String) throws -> Data { try Data(contentsOf: url(relativePath)) }

    /// File names in a corpus folder with the given extension, sorted. Fails loudly when the
    /// folder is missing, so a missing corpus never passes as "nothing to test".
    static func files(in folder: String, withExtension ext: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: url(folder).path)
        return names.filter { $0.lowercased().hasSuffix("." + ext) }.sorted()
    }
}
