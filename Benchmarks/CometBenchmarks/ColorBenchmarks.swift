import Benchmark
import BenchmarkSupport
import Comet
import Foundation

/// What colour management costs a decode: the same files decoded with and without conversion,
/// in the default configuration (the reference only sets `keepsOriginalColors`).
enum ColorBenchmarks {
    static func register() {
        var index = 0
        func next(_ files: [Data]) -> Data {
            index += 1
            return files[index % files.count]
        }
        let converting = ImageDecodingOptions()
        let keeping = ImageDecodingOptions(keepsOriginalColors: true)

        Benchmark(Figures.decodeP3JPEG.name, configuration: .suite(iterations: 2_000)) { _ in
            blackHole(try? JPEGDecoder().decode(next(Workloads.p3Photos), options: converting))
        }
        Benchmark(Figures.decodeP3JPEG.referenceName, configuration: .suite(iterations: 2_000)) { _ in
            blackHole(try? JPEGDecoder().decode(next(Workloads.p3Photos), options: keeping))
        }

        Benchmark(Figures.decodeSRGBTaggedJPEG.name, configuration: .suite(iterations: 2_000)) { _ in
            blackHole(try? JPEGDecoder().decode(next(Workloads.sRGBTaggedPhotos)))
        }
        Benchmark(Figures.decodeSRGBTaggedJPEG.referenceName, configuration: .suite(iterations: 2_000)) { _ in
            blackHole(try? JPEGDecoder().decode(next(Workloads.untaggedPhotos)))
        }

        let fill = ImageProcessors.Resize(size: Size(width: 256, height: 256), contentMode: .aspectFill, crop: true)
        let cover = ImageDecodingOptions(downsampling: .covering(width: 256, height: 256))
        var coverKeeping = cover
        coverKeeping.keepsOriginalColors = true
        Benchmark(Figures.p3Thumbnail.name, configuration: .suite(iterations: 2_000)) { _ in
            blackHole(try? fill.process(JPEGDecoder().decode(next(Workloads.p3Photos), options: cover).image))
        }
        Benchmark(Figures.p3Thumbnail.referenceName, configuration: .suite(iterations: 2_000)) { _ in
            blackHole(try? fill.process(JPEGDecoder().decode(next(Workloads.p3Photos), options: coverKeeping).image))
        }
    }
}
