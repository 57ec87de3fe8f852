import Benchmark
import BenchmarkSupport
import CReference
import Comet
import Foundation

/// Decoders and processors against plain C loops over the same bytes or pixels.
enum CodecBenchmarks {
    static func register() {
        let eighth = ImageDecodingOptions(downsampling: .maxPixelSize(1000))
        registerDecode(
            Figures.decodeJPEG, inputs: { Workloads.photos }, iterations: 10_000,
            comet: { try JPEGDecoder().decode($0) }, reference: { ref_jpeg_decode($0.baseAddress, $0.count, 1) })
        registerDecode(
            Figures.decodeLargeJPEG, inputs: { Workloads.largePhotos }, iterations: 30,
            comet: { try JPEGDecoder().decode($0, options: eighth) },
            reference: { ref_jpeg_decode($0.baseAddress, $0.count, 8) })
        let fillCover = ImageDecodingOptions(downsampling: .covering(width: 256, height: 256))
        registerDecode(
            Figures.thumbnailDecodeScale, inputs: { Workloads.photos }, iterations: 10_000,
            comet: { try JPEGDecoder().decode($0, options: fillCover) },
            reference: { ref_jpeg_decode_scaled($0.baseAddress, $0.count, 3, 8) })
        registerDecode(
            Figures.decodePNG, inputs: { Workloads.pngs }, iterations: 10_000,
            comet: { try PNGDecoder().decode($0) }, reference: { ref_png_decode($0.baseAddress, $0.count) })

        registerProcessors()
        registerLargeThumbnail()
    }

    /// A decoder and its C loop over the same inputs, taken in turn.
    private static func registerDecode(
        _ figure: Figure, inputs: @escaping () -> [Data], iterations: Int,
        comet: @escaping (Data) throws -> DecodedImage,
        reference: @escaping (UnsafeRawBufferPointer) -> UInt64
    ) {
        var index = 0
        func next() -> Data {
            let all = inputs()
            index += 1
            return all[index % all.count]
        }
        Benchmark(figure.name, configuration: .suite(iterations: iterations)) { _ in
            blackHole(try? comet(next()))
        }
        Benchmark(figure.referenceName, configuration: .suite(iterations: iterations)) { _ in
            blackHole(next().withUnsafeBytes(reference))
        }
    }

    private static func registerProcessors() {
        // The same decoded pixels through Comet's processors and through the C loops.
        let fill = ImageProcessors.Resize(size: Size(width: 256, height: 256), contentMode: .aspectFill, crop: true)
        Benchmark(Figures.resize.name, configuration: .suite()) { benchmark in
            let photo = decodedPhoto()
            benchmark.startMeasurement()
            blackHole(try? fill.process(photo))
        }
        var output = [UInt8](repeating: 0, count: 256 * 256 * 4)
        Benchmark(Figures.resize.referenceName, configuration: .suite()) { benchmark in
            let pixels = decodedPhoto().packedBytes
            benchmark.startMeasurement()
            pixels.withUnsafeBufferPointer { source in
                ref_lanczos_resample(source.baseAddress, 1024 * 4, 1024, 768, 128, 0, 768, 768, 256, 256, 0, &output)
            }
            blackHole(output)
        }
        let areaFill = ImageProcessors.Resize(
            size: Size(width: 256, height: 256), contentMode: .aspectFill, crop: true, filter: .areaAverage)
        Benchmark(Figures.resizeAreaAverage.name, configuration: .suite()) { benchmark in
            let photo = decodedPhoto()
            benchmark.startMeasurement()
            blackHole(try? areaFill.process(photo))
        }
        Benchmark(Figures.resizeAreaAverage.referenceName, configuration: .suite()) { benchmark in
            let pixels = decodedPhoto().packedBytes
            benchmark.startMeasurement()
            pixels.withUnsafeBufferPointer { source in
                ref_area_average(source.baseAddress, 1024 * 4, 128, 0, 256, 256, 3, &output)
            }
            blackHole(output)
        }

        let blur = ImageProcessors.GaussianBlur(radius: 8)
        Benchmark(Figures.blur.name, configuration: .suite(iterations: 100)) { benchmark in
            let photo = decodedPhoto()
            benchmark.startMeasurement()
            blackHole(try? blur.process(photo))
        }
        var scratch = [UInt8](repeating: 0, count: 1024 * 768 * 4)
        Benchmark(Figures.blur.referenceName, configuration: .suite(iterations: 100)) { benchmark in
            var pixels = decodedPhoto().packedBytes
            benchmark.startMeasurement()
            // One box pass each way with the radius of one of the three passes (σ 8 → ~7).
            ref_box_blur(&pixels, 1024, 768, 7, &scratch)
            blackHole(pixels)
        }

        let sharpen = ImageProcessors.Sharpen(radius: 0.5)
        Benchmark(Figures.sharpen.name, configuration: .suite(iterations: 100)) { benchmark in
            let photo = decodedPhoto()
            benchmark.startMeasurement()
            blackHole(try? sharpen.process(photo))
        }
        var floats = [Float](repeating: 0, count: 1024 * 768 * 4)
        var sharpened = [UInt8](repeating: 0, count: 1024 * 768 * 4)
        Benchmark(Figures.sharpen.referenceName, configuration: .suite(iterations: 100)) { benchmark in
            let pixels = decodedPhoto().packedBytes
            benchmark.startMeasurement()
            ref_unsharp_mask(pixels, 1024, 768, 0.5, 1, &floats, &sharpened)
            blackHole(sharpened)
        }
    }

    /// 8000×6000 → 256² through the pipeline (bytes from memory): decode-time downsampling to
    /// cover 256², then fill and crop. Timed over 30 runs, and once in a fresh process for the
    /// peak resident memory.
    private static func registerLargeThumbnail() {
        var index = 0
        let repeated = Benchmark.Configuration.suite(iterations: 30)
        let once = Benchmark.Configuration.suite(iterations: 1, warmup: 0)
        for (figure, configuration) in [(Figures.largeThumbnail, repeated), (Figures.largeThumbnailMemory, once)] {
            Benchmark(figure.name, configuration: configuration) { benchmark in
                let data = Workloads.largePhotos[index % Workloads.largePhotos.count]
                index += 1
                let pipeline = ImagePipeline {
                    $0.dataLoader = InstantLoader(data: data)
                    $0.imageCache = nil
                }
                let request = ImageRequest(
                    url: URL(string: "https://bench.invalid/large/\(index).jpg"),
                    processors: [.resize(size: Size(width: 256, height: 256), contentMode: .aspectFill, crop: true)],
                    thumbnail: .init(width: 256, height: 256, contentMode: .aspectFill))
                benchmark.startMeasurement()
                blackHole(try? await pipeline.image(for: request))
            }
            Benchmark(figure.referenceName, configuration: configuration) { _ in
                let data = Workloads.largePhotos[index % Workloads.largePhotos.count]
                index += 1
                blackHole(data.withUnsafeBytes { ref_jpeg_decode($0.baseAddress, $0.count, 8) })
            }
        }
    }

    /// The first photo, decoded once per process (a lazily initialised static: thread-safe).
    private static let photo = try! JPEGDecoder().decode(Workloads.photos[0]).image

    private static func decodedPhoto() -> Image { photo }
}
