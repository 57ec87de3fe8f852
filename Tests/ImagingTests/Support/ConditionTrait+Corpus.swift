import CometTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the suite or test only when the corpus has every one of `sets` (top-level folders of
    /// ``TestCorpus``). Otherwise it is skipped with one line naming the missing folders and how
    /// to get them, or, under `COMET_REQUIRE_CORPUS=1`, fails with that line.
    static func requiresCorpus(_ sets: String...) -> Self {
        let corpus = TestCorpus.current
        return .enabled(Comment(rawValue: corpus.unavailabilityMessage(for: sets))) {
            try corpus.checkAvailability(of: sets)
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite only when the colour fixtures (`make colour-fixtures`) are there; under
    /// `COMET_REQUIRE_CORPUS=1` (CI) their absence fails instead.
    static var requiresColorFixtures: Self {
        requiresGeneratedFixtures(
            isAvailable: ColorFixtures.current.isAvailable, message: ColorFixtures.current.unavailabilityMessage)
    }

    /// Runs the suite only when the HEIC and JPEG XL fixtures (`make heic-jxl-fixtures`) are
    /// there; under `COMET_REQUIRE_CORPUS=1` (CI) their absence fails instead.
    static var requiresHEICJXLFixtures: Self {
        requiresGeneratedFixtures(
            isAvailable: HEICJXLFixtures.current.isAvailable, message: HEICJXLFixtures.current.unavailabilityMessage)
    }

    /// Files a `make` target generates from the corpus: there, missing (skip), or missing under
    /// `COMET_REQUIRE_CORPUS=1` (fail, saying how to make them).
    private static func requiresGeneratedFixtures(isAvailable: Bool, message: String) -> Self {
        .enabled(Comment(rawValue: message)) {
            if isAvailable { return true }
            if TestCorpus.current.isRequired {
                throw TestCorpus.MissingCorpus(message: "COMET_REQUIRE_CORPUS=1, but the suite " + message)
            }
            return false
        }
    }
}
