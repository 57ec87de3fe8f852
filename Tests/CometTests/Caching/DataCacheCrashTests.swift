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
@Suite("DataCache crash safety", .timeLimit(.minutes(10)))
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
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "comet-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var verified = 0
        var roundsWithLeftoverTemporaryFiles = 0
        for round in 0..<Self.rounds {
            try runWriter(in: directory, seed: UInt64(round + 1), killAfterMilliseconds: Int.random(in: 5..<120))
            roundsWithLeftoverTemporaryFiles += temporaryFileCount(in: directory) > 0 ? 1 : 0
            let cache = DataCache(path: directory)
            for index in 0..<CrashPayload.keyCount {
                guard let data = cache.cachedData(for: CrashPayload.key(index)) else { continue }
                #expect(
                    CrashPayload.isValid(data, forKey: index),
                    "round \(round): key \(index) read back \(data.count) bad bytes")
                verified += 1
            }
        }
        print(
            "DataCache crash safety: \(Self.rounds) rounds, \(verified) entries verified, "
                + "\(roundsWithLeftoverTemporaryFiles) rounds killed with a write in progress")
        // Not vacuous: values were read back, and some kills landed in the middle of a write.
        #expect(verified > Self.rounds)
        #expect(roundsWithLeftoverTemporaryFiles > 0)
    }

    /// Starts the writer, waits until it has written, lets it run, then kills it with SIGKILL.
    /// Spawned with `posix_spawn`, not Foundation's `Process`: `Process.run` reads past a buffer
    /// while it lists /proc/self/fd (AddressSanitizer reports it in Foundation's
    /// `findMaximumOpenFromProcSelfFD`), which made `make asan` fail by the number of open files.
    private func runWriter(in directory: URL, seed: UInt64, killAfterMilliseconds delay: Int) throws {
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        let arguments = [Self.writerURL.path, directory.path, String(seed)]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Self.writerURL.path, &actions, nil, &argv, environ)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        try #require(spawned == 0, "posix_spawn failed: \(spawned)")
        // Bounded wait for "ready": a writer that cannot start is killed all the same.
        var ready = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, 10_000)
        usleep(useconds_t(delay * 1000))
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // Killed by a signal: the low 7 bits hold the signal number (WIFSIGNALED / WTERMSIG).
        #expect(status & 0x7f == SIGKILL)
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
