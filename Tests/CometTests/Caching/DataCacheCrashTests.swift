import Foundation
import Testing
import Comet
import CometTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Disk-cache crash safety: a child process writes, removes and clears entries as fast as it can
/// and is killed with SIGKILL at a random moment; then a fresh cache over the same directory must
/// return, for every key, either nothing or a complete, correct value of that key.
///
/// `COMET_CRASH_ROUNDS` sets the number of rounds (100 by default).
@Suite("DataCache crash safety", .timeLimit(.minutes(3)))
struct DataCacheCrashTests {
    static let rounds = Int(ProcessInfo.processInfo.environment["COMET_CRASH_ROUNDS"] ?? "") ?? 100

    @Test func everyEntryReadAfterSIGKILLIsCompleteAndBelongsToItsKey() async throws {
        // The rounds block (sleeps, waits for the child): they run on a thread of their own so
        // that Swift concurrency's few cooperative threads stay free for the other suites.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread { continuation.resume(with: Result { try runRounds() }) }.start()
        }
    }

    private func runRounds() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("comet-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var verified = 0
        var roundsWithLeftoverTemporaryFiles = 0
        for round in 0..<Self.rounds {
            try runWriter(in: directory, seed: UInt64(round + 1), killAfterMilliseconds: Int.random(in: 5..<120))
            roundsWithLeftoverTemporaryFiles += temporaryFileCount(in: directory) > 0 ? 1 : 0
            let cache = DataCache(path: directory)
            for index in 0..<CrashPayload.keyCount {
                guard let data = cache.cachedData(for: CrashPayload.key(index)) else { continue }
                #expect(CrashPayload.isValid(data, forKey: index), "round \(round): key \(index) read back \(data.count) bad bytes")
                verified += 1
            }
        }
        print("DataCache crash safety: \(Self.rounds) rounds, \(verified) entries verified, "
              + "\(roundsWithLeftoverTemporaryFiles) rounds killed with a write in progress")
        // Not vacuous: values were read back, and some kills landed in the middle of a write.
        #expect(verified > Self.rounds)
        #expect(roundsWithLeftoverTemporaryFiles > 0)
    }

    /// Starts the writer, waits until it has written, lets it run, then kills it with SIGKILL.
    private func runWriter(in directory: URL, seed: UInt64, killAfterMilliseconds delay: Int) throws {
        let process = Process()
        process.executableURL = Self.writerURL
        process.arguments = [directory.path, String(seed)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Bounded wait for "ready": a writer that cannot start is killed all the same.
        let ready = DispatchSemaphore(value: 0)
        output.fileHandleForReading.readabilityHandler = { handle in
            if !handle.availableData.isEmpty { ready.signal() }
        }
        _ = ready.wait(timeout: .now() + 10)
        output.fileHandleForReading.readabilityHandler = nil
        usleep(useconds_t(delay * 1000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
    }

    private func temporaryFileCount(in directory: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(".comet-tmp-") }.count
    }

    /// The writer executable, built beside the test bundle.
    static let writerURL: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("CacheCrashWriter")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return bundle.deletingLastPathComponent().appendingPathComponent("CacheCrashWriter")
    }()
}
