import Benchmark
import BenchmarkSupport
import Comet
import Dispatch
import Foundation
import VipsReference

/// Comet's default thumbnail (Lanczos3 after shrink-on-load) against libvips'
/// `vips_thumbnail_buffer` in the same process, over the same JPEG bytes and at the same output
/// size, on one core and on two (two threads, each making its half of the batch).
enum ThumbnailFilterBenchmarks {
    static let side = 256
    static let batch = 20

    static func register() {
        precondition(vips_reference_start() == 0, "libvips failed to start")
        let fill = ImageProcessors.Resize(size: Size(width: side, height: side), contentMode: .aspectFill, crop: true)
        let options = ImageDecodingOptions(downsampling: fill.decodingDownsampling)
        @Sendable func comet(_ jpeg: Data) -> Image? {
            guard let decoded = try? JPEGDecoder().decode(jpeg, options: options) else { return nil }
            return try? fill.process(decoded.image)
        }
        @Sendable func vips(_ jpeg: Data) -> UInt64 {
            var pixels = [UInt8](repeating: 0, count: side * side * 4)
            let capacity = pixels.count
            return jpeg.withUnsafeBytes { bytes in
                vips_reference_thumbnail(
                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, UInt32(side), &pixels,
                    capacity)
            }
        }
        for (figure, threads) in [(Figures.thumbnailOneCore, 1), (Figures.thumbnailTwoCores, 2)] {
            Benchmark(figure.name, configuration: .suite(iterations: 200)) { _ in
                run(threads: threads) { blackHole(comet($0)) }
            }
            Benchmark(figure.referenceName, configuration: .suite(iterations: 200)) { _ in
                run(threads: threads) { blackHole(vips($0)) }
            }
        }
    }

    /// `batch` photos per thread, each thread its own photos.
    private static func run(threads: Int, _ body: @Sendable @escaping (Data) -> Void) {
        let photos = Workloads.photos
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<batch { body(photos[(thread * batch + index) % photos.count]) }
        }
    }
}
