import Foundation

/// The external test images (PngSuite, libjpeg-turbo's test images, EXIF samples, real photos):
/// where they are, which sets are there, and whether a run may go without them.
///
/// The corpus folder is the first of:
/// 1. `$COMET_CORPUS`, when set (used even when it does not exist, so CI can point at a copy);
/// 2. `.corpus/` in the repository, which `make corpus` fills (ignored by git);
/// 3. `../shared/corpus` beside the repository.
///
/// A set is a top-level folder of the corpus (`pngsuite`, `sharp-photos`, …). Suites that need
/// sets are skipped, with one line naming the missing folders, when they are not there; with
/// `COMET_REQUIRE_CORPUS=1` (CI) a missing set is an error instead.
public struct TestCorpus: Sendable {
    /// The variable that names the corpus folder.
    public static let locationVariable = "COMET_CORPUS"
    /// The variable that, set to `1`, makes a missing set fail the run instead of skipping.
    public static let requirementVariable = "COMET_REQUIRE_CORPUS"
    /// The folder inside the repository that `make corpus` fills.
    public static let fetchedFolderName = ".corpus"

    /// The repository this file belongs to.
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The corpus of this test process (its environment, this repository).
    public static let current = TestCorpus(environment: ProcessInfo.processInfo.environment)

    /// The corpus folder, or `nil` when none of the candidates exists.
    public let root: URL?
    /// The folders tried, in order, when `$COMET_CORPUS` is unset; empty when it is set.
    public let searchedFolders: [URL]
    /// Whether a missing set is an error (`COMET_REQUIRE_CORPUS=1`) rather than a reason to skip.
    public let isRequired: Bool

    /// Resolves the corpus folder from `environment` for the repository at `repository`.
    public init(environment: [String: String], repository: URL = TestCorpus.repository) {
        isRequired = Self.isEnabled(environment[Self.requirementVariable])
        if let path = environment[Self.locationVariable], !path.isEmpty {
            root = URL(fileURLWithPath: path).standardizedFileURL
            searchedFolders = []
        } else {
            searchedFolders = [
                repository.appendingPathComponent(Self.fetchedFolderName),
                repository.deletingLastPathComponent().appendingPathComponent("shared/corpus"),
            ].map(\.standardizedFileURL)
            root = searchedFolders.first(where: Self.isDirectory)
        }
    }

    /// The file or folder at `relativePath` inside the corpus.
    public func url(_ relativePath: String) -> URL {
        (root ?? searchedFolders.first ?? URL(fileURLWithPath: "/nonexistent-corpus")).appendingPathComponent(
            relativePath)
    }

    /// The contents of the corpus file at `relativePath`.
    public func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// File names in a corpus folder with the given extension, sorted. Throws when the folder is
    /// missing, so a missing set never passes as "nothing to test".
    public func files(in folder: String, withExtension ext: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: url(folder).path)
        return names.filter { $0.lowercased().hasSuffix("." + ext.lowercased()) }.sorted()
    }

    /// The sets among `sets` that are not folders of the corpus, in the order given.
    public func missingSets(among sets: [String]) -> [String] {
        guard root != nil else { return sets }
        return sets.filter { !Self.isDirectory(url($0)) }
    }

    /// Whether a suite needing `sets` can run: `true` when they are all there, `false` when some
    /// are missing (skip), and an error when some are missing and the corpus is required.
    public func checkAvailability(of sets: [String]) throws(MissingCorpus) -> Bool {
        if missingSets(among: sets).isEmpty { return true }
        if isRequired {
            throw MissingCorpus(message: "\(Self.requirementVariable)=1, but " + unavailabilityMessage(for: sets))
        }
        return false
    }

    /// One line: which of `sets` are missing, where they were looked for, and how to get them.
    public func unavailabilityMessage(for sets: [String]) -> String {
        let missing = missingSets(among: sets)
        let names = (missing.isEmpty ? sets : missing).joined(separator: ", ")
        let noun = missing.count == 1 ? "folder" : "folders"
        let place: String
        if let root {
            place = "not in \(root.path)"
        } else {
            let folders = searchedFolders.map(\.path).joined(separator: " nor ")
            place = "no corpus: \(Self.locationVariable) is unset and neither \(folders) exists"
        }
        return "needs corpus \(noun) \(names), \(place). `make corpus` fetches the corpus (needs internet); "
            + "or set \(Self.locationVariable) to a copy"
    }

    /// A required set that is missing.
    public struct MissingCorpus: Error, CustomStringConvertible {
        /// What is missing, where it was looked for, and how to get it.
        public let message: String
        public var description: String { message }
        /// A required set or fixture folder that is missing, with what to do about it.
        public init(message: String) { self.message = message }
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func isEnabled(_ value: String?) -> Bool {
        guard let value = value?.lowercased(), !value.isEmpty else { return false }
        return !["0", "false", "no"].contains(value)
    }
}

extension TestCorpus {
    /// ``url(_:)`` of the current corpus.
    public static func url(_ relativePath: String) -> URL { current.url(relativePath) }

    /// ``data(_:)`` of the current corpus.
    public static func data(_ relativePath: String) throws -> Data { try current.data(relativePath) }

    /// ``files(in:withExtension:)`` of the current corpus.
    public static func files(in folder: String, withExtension ext: String) throws -> [String] {
        try current.files(in: folder, withExtension: ext)
    }
}
