import Benchmark
import BenchmarkSupport
import CReference
import Comet
import Foundation

/// Memory-cache hits through the pipeline's two front doors, and the disk cache against plain
/// stdio file I/O.
enum CacheBenchmarks {
    static func register() {
        registerMemoryHits()
        registerDisk()
    }

    private static func registerMemoryHits() {
        let operations = Figures.memoryHitAsync.operations
        let request = ImageRequest(url: URL(string: "https://bench.invalid/hit.png"), processors: [.resize(width: 1)])
        func warmPipeline() async throws -> ImagePipeline {
            let pipeline = ImagePipeline {
                $0.dataLoader = InstantLoader(data: Workloads.pixel)
                $0.imageCache = ImageCache()
            }
            _ = try await pipeline.image(for: request)
            guard pipeline.cache[request] != nil else { throw CancellationError() }
            return pipeline
        }
        Benchmark(
            Figures.memoryHitAsync.name, configuration: .suite(),
            closure: { (_, pipeline: ImagePipeline) async in
                for _ in 0..<operations { blackHole(try? await pipeline.image(for: request)) }
            }, setup: warmPipeline)
        Benchmark(
            Figures.memoryHitSubscript.name, configuration: .suite(),
            closure: { (_, pipeline: ImagePipeline) in
                for _ in 0..<operations { blackHole(pipeline.cache[request]) }
            }, setup: warmPipeline)

        // The reference for both: the least a thread-safe in-memory cache does per hit.
        let lock = NSLock()
        let image = Image(width: 1, height: 1, color: .white)
        let table = ["https://bench.invalid/hit.png#resize": image]
        let key = "https://bench.invalid/hit.png#resize"
        for figure in [Figures.memoryHitAsync, Figures.memoryHitSubscript] {
            Benchmark(figure.referenceName, configuration: .suite()) { _ in
                for _ in 0..<operations { blackHole(lock.withLock { table[key] }) }
            }
        }
    }

    private static func registerDisk() {
        let count = Figures.diskWrite.operations
        let payloads = (0..<count).map { index in
            Data((0..<(64 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) })
        }
        let keys = (0..<count).map { "https://bench.invalid/disk/\($0).jpg" }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("comet-bench-\(getpid())")

        Benchmark(
            Figures.diskWrite.name, configuration: .suite(iterations: 200),
            closure: { (benchmark, cache: DataCache) in
                for (key, payload) in zip(keys, payloads) { cache.storeData(payload, for: key) }
                cache.flush()
            }, setup: { DataCache(path: root.appendingPathComponent("write")) },
            teardown: { try? FileManager.default.removeItem(at: root) })
        Benchmark(
            Figures.diskWrite.referenceName, configuration: .suite(iterations: 200),
            closure: { (benchmark, directory: URL) in
                for (index, payload) in payloads.enumerated() {
                    let path = directory.appendingPathComponent("\(index)").path
                    let status = payload.withUnsafeBytes { ref_write_file(path, $0.baseAddress, $0.count) }
                    if status != 0 { benchmark.error("fwrite failed for \(path)") }
                }
            }, setup: { try makeDirectory(root.appendingPathComponent("write-reference")) },
            teardown: { try? FileManager.default.removeItem(at: root) })

        Benchmark(
            Figures.diskRead.name, configuration: .suite(iterations: 500),
            closure: { (benchmark, cache: DataCache) in
                for key in keys where cache.cachedData(for: key) == nil { benchmark.error("miss for \(key)") }
            },
            setup: {
                let cache = DataCache(path: root.appendingPathComponent("read"))
                for (key, payload) in zip(keys, payloads) { cache.storeData(payload, for: key) }
                cache.flush()
                return cache
            }, teardown: { try? FileManager.default.removeItem(at: root) })
        var buffer = [UInt8](repeating: 0, count: 128 << 10)
        Benchmark(
            Figures.diskRead.referenceName, configuration: .suite(iterations: 500),
            closure: { (benchmark, directory: URL) in
                for index in 0..<count {
                    let path = directory.appendingPathComponent("\(index)").path
                    if ref_read_file(path, &buffer, buffer.count) != Int64(64 << 10) {
                        benchmark.error("fread failed for \(path)")
                    }
                }
            },
            setup: {
                let directory = try makeDirectory(root.appendingPathComponent("read-reference"))
                for (index, payload) in payloads.enumerated() {
                    try payload.write(to: directory.appendingPathComponent("\(index)"))
                }
                return directory
            }, teardown: { try? FileManager.default.removeItem(at: root) })
    }

    private static func makeDirectory(_ url: URL) throws -> URL {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
