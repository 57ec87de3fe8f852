import CometTestSupport
import Foundation

/// The shared test corpus, located as every suite of the repository locates it
/// (``TestCorpus``: `$COMET_CORPUS`, else `.corpus`, else `../shared/corpus`).
enum ServerTestCorpus {
    /// The bytes of the corpus file at `path` (e.g. `sharp-photos/Landscape_9.jpg`), or `nil`.
    static func bytes(_ path: String) -> [UInt8]? {
        guard TestCorpus.current.root != nil else { return nil }
        return (try? TestCorpus.data(path)).map { [UInt8]($0) }
    }

    /// Whether the corpus is there; CI (`COMET_REQUIRE_CORPUS=1`) requires it, so then the
    /// suites run and fail on what is missing.
    static var isAvailable: Bool {
        TestCorpus.current.root != nil || TestCorpus.current.isRequired
    }

    /// Whether the corpus folders `sets` are there, or required (then the suites run and fail).
    static func hasSets(_ sets: [String]) -> Bool {
        (try? TestCorpus.current.checkAvailability(of: sets)) ?? true
    }
}
