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
        let fixtures = ColorFixtures.current
        return .enabled(Comment(rawValue: fixtures.unavailabilityMessage)) {
            if fixtures.isAvailable { return true }
            if TestCorpus.current.isRequired {
                throw TestCorpus.MissingCorpus(
                    message: "COMET_REQUIRE_CORPUS=1, but the suite " + fixtures.unavailabilityMessage)
            }
            return false
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite only when the HEIC and JPEG XL fixtures (`make heic-jxl-fixtures`) are
    /// there; under `COMET_REQUIRE_CORPUS=1` (CI) their absence fails instead.
    static var requiresHEICJXLFixtures: Self {
        let fixtures = HEICJXLFixtures.current
        return .enabled(Comment(rawValue: fixtures.unavailabilityMessage)) {
            if fixtures.isAvailable { return true }
            if TestCorpus.current.isRequired {
                throw TestCorpus.MissingCorpus(
                    message: "COMET_REQUIRE_CORPUS=1, but the suite " + fixtures.unavailabilityMessage)
            }
            return false
        }
    }
}
