import Foundation

/// The shared test corpus as the root package's tests find it: `$COMET_CORPUS`, else `.corpus`
/// at the repository root (`make corpus`), else `../shared/corpus` beside the repository.
enum ServerTestCorpus {
    static let folder: URL? = {
        if let path = ProcessInfo.processInfo.environment["COMET_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for candidate in [
            repository.appendingPathComponent(".corpus"),
            repository.deletingLastPathComponent().appendingPathComponent("shared/corpus"),
        ] where FileManager.default.fileExists(atPath: candidate.path) {
            return candidate
        }
        return nil
    }()

    /// The bytes of the corpus file at `path` (e.g. `sharp-photos/Landscape_9.jpg`), or `nil`.
    static func bytes(_ path: String) -> [UInt8]? {
        guard let folder else { return nil }
        return (try? Data(contentsOf: folder.appendingPathComponent(path))).map { [UInt8]($0) }
    }

    /// Whether the corpus is there; CI (`COMET_REQUIRE_CORPUS=1`) requires it.
    static var isAvailable: Bool {
        let required = ["1", "true", "yes"].contains(ProcessInfo.processInfo.environment["COMET_REQUIRE_CORPUS"] ?? "")
        return folder != nil || required
    }
}
