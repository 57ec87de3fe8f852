import Foundation
import Synchronization
import Testing
@testable import Comet
import CometTestSupport

/// Random loads, cancels and priority changes from many tasks at once: every task ends
/// (image or error), and the pipeline holds nothing afterwards. Run under
/// `swift test --sanitize=thread` (`make tsan`) to check for data races.
@Suite("Stress", .timeLimit(.minutes(1)))
struct StressTests {
    @Test func randomLoadsCancelsAndPriorityChangesAllEnd() async throws {
        let loader = MockDataLoader { request in
            // A few URLs fail; the rest succeed.
            request.url!.lastPathComponent.hasPrefix("7") ? .failure(URLError(.badServerResponse)) : .success(TestImages.jpeg(width: 32, height: 24))
        }
        let pipeline = ImagePipeline.test(loader: loader) {
            $0.dataLoadingConcurrencyLimit = 3
            $0.imageCache = ImageCache(costLimit: 64 * 32 * 24 * 4) // small: evictions happen too
        }
        let processors: [[any ImageProcessing]] = [[], [.resize(width: 16)], [.resize(width: 16), .circle()], [.gaussianBlur(radius: 2)]]
        let outcomes = Outcomes()
        let operations = 1200
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<12 {
                group.addTask {
                    var random = SystemRandomNumberGenerator()
                    var tasks: [ImageTask] = []
                    for step in 0..<(operations / 12) {
                        switch Int.random(in: 0..<10, using: &random) {
                        case 0..<5:
                            let url = URL(string: "https://example.com/\(Int.random(in: 0..<20, using: &random)).jpg")!
                            let request = ImageRequest(url: url, processors: processors.randomElement(using: &random)!,
                                                       priority: ImageRequest.Priority.allCases.randomElement(using: &random)!)
                            tasks.append(pipeline.imageTask(with: request))
                        case 5..<7:
                            tasks.randomElement(using: &random)?.cancel()
                        case 7..<9:
                            tasks.randomElement(using: &random)?.priority = ImageRequest.Priority.allCases.randomElement(using: &random)!
                        default:
                            if step % 50 == 0 { pipeline.configuration.imageCache?.removeAll() }
                            await Task.yield()
                        }
                    }
                    _ = worker
                    for task in tasks {
                        do {
                            _ = try await task.response
                            outcomes.record(\.finished)
                        } catch let error as ImagePipeline.Error where error.isCancellation {
                            outcomes.record(\.cancelled)
                        } catch {
                            outcomes.record(\.failed)
                        }
                    }
                }
            }
        }
        let counts = outcomes.counts
        #expect(counts.finished + counts.failed + counts.cancelled > operations / 3)
        #expect(counts.finished > 0 && counts.failed > 0)
        #expect(await eventually(within: 10) { pipeline.activeJobCount == 0 && pipeline.activeTaskCount == 0 })
    }
}

/// Counts how tasks ended, from many tasks at once.
final class Outcomes: Sendable {
    struct Counts { var finished = 0, failed = 0, cancelled = 0 }
    private let state = Locked(Counts())
    func record(_ field: WritableKeyPath<Counts, Int> & Sendable) { state.withLock { $0[keyPath: field] += 1 } }
    var counts: Counts { state.withLock { $0 } }
}
