import CometTestSupport
import Foundation
import Testing

/// Where the tests look for the corpus, and when a missing set skips a suite or fails the run.
/// Each test builds a repository layout in a temporary directory and passes its own environment.
@Suite("Test corpus location")
struct TestCorpusTests {
    /// A temporary `parent/` holding `parent/repo`; removed when the test ends.
    final class Layout {
        let parent: URL
        var repository: URL { parent.appendingPathComponent("repo") }
        var fetched: URL { repository.appendingPathComponent(".corpus") }
        var shared: URL { parent.appendingPathComponent("shared/corpus") }

        init() throws {
            parent = FileManager.default.temporaryDirectory.appendingPathComponent(
                "comet-corpus-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: parent) }

        /// Creates `sets` as folders of `corpus`.
        func make(_ corpus: URL, sets: String...) throws {
            for set in sets {
                try FileManager.default.createDirectory(
                    at: corpus.appendingPathComponent(set), withIntermediateDirectories: true)
            }
        }

        func corpus(_ environment: [String: String] = [:]) -> TestCorpus {
            TestCorpus(environment: environment, repository: repository)
        }
    }

    @Test func theVariableWinsOverBothFolders() throws {
        let layout = try Layout()
        try layout.make(layout.fetched, sets: "pngsuite")
        try layout.make(layout.shared, sets: "pngsuite")
        let elsewhere = layout.parent.appendingPathComponent("elsewhere")
        #expect(layout.corpus(["COMET_CORPUS": elsewhere.path]).root == elsewhere.standardizedFileURL)
    }

    @Test func aVariableNamingNoFolderStillWinsAndEverySetIsMissing() throws {
        let layout = try Layout()
        try layout.make(layout.shared, sets: "pngsuite")
        let corpus = layout.corpus(["COMET_CORPUS": layout.parent.appendingPathComponent("empty").path])
        #expect(corpus.missingSets(among: ["pngsuite"]) == ["pngsuite"])
    }

    @Test func theFetchedFolderInTheRepositoryComesBeforeTheSharedOne() throws {
        let layout = try Layout()
        try layout.make(layout.fetched, sets: "pngsuite")
        try layout.make(layout.shared, sets: "pngsuite")
        #expect(layout.corpus().root == layout.fetched.standardizedFileURL)
    }

    @Test func theSharedFolderBesideTheRepositoryIsTheLastResort() throws {
        let layout = try Layout()
        try layout.make(layout.shared, sets: "pngsuite")
        let corpus = layout.corpus(["COMET_CORPUS": ""])
        #expect(corpus.root == layout.shared.standardizedFileURL)
        #expect(
            corpus.url("pngsuite/basn0g01.png").path == layout.shared.standardizedFileURL.path
                + "/pngsuite/basn0g01.png")
    }

    @Test func withNoFolderThereIsNoRootAndEverySetIsMissing() throws {
        let layout = try Layout()
        let corpus = layout.corpus()
        #expect(corpus.root == nil)
        #expect(corpus.missingSets(among: ["pngsuite", "png-real"]) == ["pngsuite", "png-real"])
    }

    @Test func onlyTheAbsentSetsAreMissing() throws {
        let layout = try Layout()
        try layout.make(layout.shared, sets: "pngsuite", "png-real")
        #expect(
            layout.corpus().missingSets(among: ["sharp-photos", "pngsuite", "exif-orientation"]) == [
                "sharp-photos", "exif-orientation",
            ])
    }

    @Test func aMissingSetSkipsWhenTheCorpusIsNotRequired() throws {
        let layout = try Layout()
        try layout.make(layout.shared, sets: "pngsuite")
        #expect(try layout.corpus().checkAvailability(of: ["pngsuite"]))
        #expect(try !layout.corpus().checkAvailability(of: ["pngsuite", "sharp-photos"]))
        #expect(try !layout.corpus(["COMET_REQUIRE_CORPUS": "0"]).checkAvailability(of: ["sharp-photos"]))
    }

    @Test func aMissingSetIsAnErrorWhenTheCorpusIsRequired() throws {
        let layout = try Layout()
        let corpus = layout.corpus(["COMET_REQUIRE_CORPUS": "1"])
        #expect(corpus.isRequired)
        #expect {
            _ = try corpus.checkAvailability(of: ["pngsuite"])
        } throws: { error in
            "\(error)".hasPrefix("COMET_REQUIRE_CORPUS=1, but needs corpus folder pngsuite")
        }
    }

    @Test func aRequiredCorpusThatIsThereRuns() throws {
        let layout = try Layout()
        try layout.make(layout.fetched, sets: "pngsuite")
        #expect(try layout.corpus(["COMET_REQUIRE_CORPUS": "1"]).checkAvailability(of: ["pngsuite"]))
    }

    @Test func theSkipLineNamesTheMissingFoldersEveryPlaceLookedAndTheFix() throws {
        let layout = try Layout()
        let message = layout.corpus().unavailabilityMessage(for: ["pngsuite", "png-real"])
        #expect(message.hasPrefix("needs corpus folders pngsuite, png-real, no corpus: COMET_CORPUS is unset"))
        #expect(message.contains(layout.fetched.standardizedFileURL.path))
        #expect(message.contains(layout.shared.standardizedFileURL.path))
        #expect(message.contains("make corpus"))
        #expect(!message.contains("\n"))
    }

    @Test func theSkipLineNamesTheFolderTheSetsWereMissingFrom() throws {
        let layout = try Layout()
        try layout.make(layout.fetched, sets: "pngsuite")
        let message = layout.corpus().unavailabilityMessage(for: ["pngsuite", "sharp-photos"])
        #expect(
            message.hasPrefix("needs corpus folder sharp-photos, not in \(layout.fetched.standardizedFileURL.path)."))
    }

    @Test func filesAreListedSortedByExtensionAndAMissingFolderThrows() throws {
        let layout = try Layout()
        try layout.make(layout.fetched, sets: "set")
        for name in ["b.PNG", "a.png", "c.jpg"] {
            try Data().write(to: layout.fetched.appendingPathComponent("set/\(name)"))
        }
        let corpus = layout.corpus()
        #expect(try corpus.files(in: "set", withExtension: "png") == ["a.png", "b.PNG"])
        #expect(throws: (any Error).self) { try corpus.files(in: "absent", withExtension: "png") }
    }
}
