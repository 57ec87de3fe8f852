import Locking
import Foundation
import Testing
@testable import Comet
import CometTestSupport

/// Random operations from many tasks at once: loads, cancels, priority changes, memory-cache
/// trims and clears, disk-cache clears, prefetch start/stop and pipeline invalidation. Every task
/// ends (image or error), every image is the one its request asked for, and nothing is left
/// running afterwards.
///
/// `COMET_STRESS_OPERATIONS` sets the number of operations (2 400 by default; `make tsan` runs
/// 12 000 under ThreadSanitizer).
@Suite("Stress", .timeLimit(.minutes(10)))
struct StressTests {
    static let operations = Int(ProcessInfo.processInfo.environment["COMET_STRESS_OPERATIONS"] ?? "") ?? 2_400
    static let workers = 12
    /// `COMET_STRESS_SEED` replays a run; otherwise each run draws a seed (named on failure).
    static let seed =
        UInt64(ProcessInfo.processInfo.environment["COMET_STRESS_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)

    @Test func randomOperationsAllEndWithTheRequestedImages() async throws {
        let world = StressWorld()
        let outcomes = Outcomes()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<Self.workers {
                group.addTask {
                    await world.runWorker(
                        operations: Self.operations / Self.workers, seed: Self.seed &+ UInt64(worker),
                        outcomes: outcomes)
                }
            }
        }
        let counts = outcomes.counts
        #expect(counts.wrongImage == 0, "an image came back for another request (COMET_STRESS_SEED=\(Self.seed))")
        #expect(counts.finished > 0 && counts.failed > 0 && counts.cancelled > 0)
        #expect(counts.finished + counts.failed + counts.cancelled == counts.started)
        world.stopAllPrefetching()
        #expect(await eventually { world.isQuiet }, "\(world.activity) (COMET_STRESS_SEED=\(Self.seed))")
    }
}

/// Two pipeline slots over one loader and one disk cache; invalidating a slot replaces its
/// pipeline (and prefetcher) with a new one, as an app would after a configuration change.
final class StressWorld: Sendable {
    static let urlCount = 20
    static let processorChoices: [[any ImageProcessing]] = [
        [], [.resize(width: 16)], [.resize(width: 16), .circle()], [.gaussianBlur(radius: 2)],
    ]

    /// The image behind URL n is (20 + n) × 24, so a mix-up between keys changes the size.
    static let sources: [Data] = (0..<urlCount).map { TestImages.jpeg(width: 20 + $0, height: 24) }
    /// The expected size for each (URL, processor choice), computed once without the pipeline.
    static let expectedSizes: [[Size]] = sources.map { data in
        let image = try! Image(data: data)
        return processorChoices.map { processors in
            let result = try! processors.reduce(image) { try $1.process($0) }
            return Size(width: result.width, height: result.height)
        }
    }

    let loader = MockDataLoader { request in
        let number = Int(request.url!.deletingPathExtension().lastPathComponent) ?? 0
        // URLs ending in 7 fail; the rest succeed.
        return number % 10 == 7 ? .failure(URLError(.badServerResponse)) : .success(StressWorld.sources[number])
    }
    let dataCache = temporaryDataCache()
    private let slots: Locked<[(pipeline: ImagePipeline, prefetcher: ImagePrefetcher)]>
    private let retired = Locked<[ImagePipeline]>([])

    init() {
        dataCache.sizeLimit = 64 << 10  // small: the sweep evicts while loads run
        slots = Locked([])
        slots.withLock { $0 = [makeSlot(), makeSlot()] }
    }

    private func makeSlot() -> (pipeline: ImagePipeline, prefetcher: ImagePrefetcher) {
        let pipeline = ImagePipeline.test(loader: loader) {
            $0.dataLoadingConcurrencyLimit = 3
            $0.imageCache = ImageCache(costLimit: 64 * 32 * 24 * 4)  // small: evictions happen too
            $0.dataCache = dataCache
            $0.dataCachePolicy = .automatic
        }
        return (pipeline, ImagePrefetcher(pipeline: pipeline))
    }

    private func slot(_ random: inout SplitMix64) -> (pipeline: ImagePipeline, prefetcher: ImagePrefetcher) {
        let index = Int.random(in: 0..<2, using: &random)
        return slots.withLock { $0[index] }
    }

    private func randomRequest(_ random: inout SplitMix64) -> (ImageRequest, Size) {
        let number = Int.random(in: 0..<Self.urlCount, using: &random)
        let choice = Int.random(in: 0..<Self.processorChoices.count, using: &random)
        let request = ImageRequest(
            url: URL(string: "https://example.com/\(number).jpg")!,
            processors: Self.processorChoices[choice],
            priority: ImageRequest.Priority.allCases.randomElement(using: &random)!)
        return (request, Self.expectedSizes[number][choice])
    }

    func runWorker(operations: Int, seed: UInt64, outcomes: Outcomes) async {
        // Seeded, so a failing run can be replayed. (With SystemRandomNumberGenerator passed
        // inout here, ThreadSanitizer crashed in its access hook: Swift 6.3.1, Linux.)
        var random = SplitMix64(seed: seed)
        var tasks: [(ImageTask, Size)] = []
        for _ in 0..<operations {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<40:
                let (request, size) = randomRequest(&random)
                tasks.append((slot(&random).pipeline.imageTask(with: request), size))
            case 40..<55:
                tasks.randomElement(using: &random)?.0.cancel()
            case 55..<65:
                tasks.randomElement(using: &random)?.0.priority = ImageRequest.Priority.allCases.randomElement(
                    using: &random)!
            case 65..<70:
                (slot(&random).pipeline.configuration.imageCache as? ImageCache)?.trim(
                    toCost: Int.random(in: 0..<20_000, using: &random))
            case 70..<72:
                slot(&random).pipeline.configuration.imageCache?.removeAll()
            case 72..<73:
                dataCache.removeAll()
            case 73..<83:
                slot(&random).prefetcher.startPrefetching(with: (0..<3).map { _ in randomRequest(&random).0 })
            case 83..<90:
                let prefetcher = slot(&random).prefetcher
                if Bool.random(using: &random) {
                    prefetcher.stopPrefetching()
                } else {
                    prefetcher.stopPrefetching(with: [randomRequest(&random).0])
                }
            case 90..<91:
                invalidateRandomSlot(&random)
            default:
                await Task.yield()
            }
        }
        for (task, expected) in tasks {
            outcomes.record(\.started)
            do {
                let image = try await task.response.image
                outcomes.record(Size(width: image.width, height: image.height) == expected ? \.finished : \.wrongImage)
            } catch let error as ImagePipeline.Error where error.wasCancelled {
                outcomes.record(\.cancelled)
            } catch {
                outcomes.record(\.failed)
            }
        }
    }

    private func invalidateRandomSlot(_ random: inout SplitMix64) {
        let index = Int.random(in: 0..<2, using: &random)
        let replacement = makeSlot()
        let old = slots.withLock { slots in
            defer { slots[index] = replacement }
            return slots[index]
        }
        old.prefetcher.stopPrefetching()
        old.pipeline.invalidate()
        retired.withLock { $0.append(old.pipeline) }
    }

    func stopAllPrefetching() {
        for slot in slots.withLock({ $0 }) { slot.prefetcher.stopPrefetching() }
    }

    /// What is still running, for a failure message.
    var activity: String {
        let live = slots.withLock { $0 }
        let pipelines = live.map(\.pipeline) + retired.withLock { $0 }
        return "prefetches \(live.map(\.prefetcher.pendingCount)), tasks \(pipelines.map(\.activeTaskCount)), "
            + "jobs \(pipelines.map(\.activeJobCount)), loader pending \(loader.pendingCount)"
    }

    /// No task or job left in any pipeline, live or retired, and no prefetch pending.
    var isQuiet: Bool {
        let live = slots.withLock { $0 }
        let pipelines = live.map(\.pipeline) + retired.withLock { $0 }
        return live.allSatisfy { $0.prefetcher.pendingCount == 0 }
            && pipelines.allSatisfy { $0.activeTaskCount == 0 && $0.activeJobCount == 0 }
    }
}

extension ImagePipeline.Error {
    /// Cancelled by its caller, or by invalidating its pipeline.
    var wasCancelled: Bool {
        switch self {
        case .cancelled, .pipelineInvalidated: true
        default: false
        }
    }
}

/// Counts how tasks ended, from many tasks at once.
final class Outcomes: Sendable {
    struct Counts { var started = 0, finished = 0, failed = 0, cancelled = 0, wrongImage = 0 }
    private let state = Locked(Counts())
    func record(_ field: WritableKeyPath<Counts, Int> & Sendable) { state.withLock { $0[keyPath: field] += 1 } }
    var counts: Counts { state.withLock { $0 } }
}
