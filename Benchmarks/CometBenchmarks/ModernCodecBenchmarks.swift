import Benchmark
import BenchmarkSupport
import CReference
import Comet
import Foundation

/// WebP and AVIF against plain C loops over libwebp and libavif (same bytes, same pixels).
enum ModernCodecBenchmarks {
    static func register() {
        var index = 0
        func nextWebP() -> Data { index += 1; return Workloads.webpPhotos[index % Workloads.webpPhotos.count] }
        func nextAVIF() -> Data { index += 1; return Workloads.avifPhotos[index % Workloads.avifPhotos.count] }

        Benchmark(Figures.decodeWebP.name, configuration: .suite(iterations: 1_000)) { _ in
            blackHole(try? WebPDecoder().decode(nextWebP()))
        }
        Benchmark(Figures.decodeWebP.referenceName, configuration: .suite(iterations: 1_000)) { _ in
            blackHole(nextWebP().withUnsafeBytes { ref_webp_decode($0.baseAddress, $0.count) })
        }

        let fill = ImageProcessors.Resize(size: Size(width: 256, height: 256), contentMode: .aspectFill, crop: true)
        let scaled = ImageDecodingOptions(downsampling: .covering(width: 256, height: 256))
        Benchmark(Figures.webpThumbnail.name, configuration: .suite(iterations: 1_000)) { _ in
            blackHole(try? fill.process(WebPDecoder().decode(nextWebP(), options: scaled).image))
        }
        Benchmark(Figures.webpThumbnail.referenceName, configuration: .suite(iterations: 1_000)) { _ in
            blackHole(try? fill.process(WebPDecoder().decode(nextWebP()).image))
        }

        Benchmark(Figures.decodeAVIF.name, configuration: .suite(iterations: 200)) { _ in
            blackHole(try? AVIFDecoder().decode(nextAVIF()))
        }
        Benchmark(Figures.decodeAVIF.referenceName, configuration: .suite(iterations: 200)) { _ in
            blackHole(nextAVIF().withUnsafeBytes { ref_avif_decode($0.baseAddress, $0.count) })
        }

        Benchmark(Figures.encodeWebP.name, configuration: .suite(iterations: 1_000)) { _ in
            blackHole(try? ImageEncoders.webp(thumbnail, quality: 0.8))
        }
        Benchmark(Figures.encodeWebP.referenceName, configuration: .suite(iterations: 1_000)) { _ in
            blackHole(thumbnailPixels.withUnsafeBufferPointer { ref_webp_encode($0.baseAddress, 256, 256, 1024, 80) })
        }
        Benchmark(Figures.encodeAVIF.name, configuration: .suite(iterations: 100)) { _ in
            blackHole(try? ImageEncoders.avif(thumbnail, quality: 0.6, speed: 8))
        }
        Benchmark(Figures.encodeAVIF.referenceName, configuration: .suite(iterations: 100)) { _ in
            blackHole(try? ImageEncoders.webp(thumbnail, quality: 0.8))
        }
    }

    /// A 256² thumbnail of the first photo (opaque), made once per process.
    private static let thumbnail: Image = {
        let photo = try! JPEGDecoder().decode(Workloads.photos[0]).image
        return try! ImageProcessors.Resize(size: Size(width: 256, height: 256), contentMode: .aspectFill, crop: true)
            .process(photo)
    }()

    private static let thumbnailPixels: [UInt8] = thumbnail.packedBytes
}
