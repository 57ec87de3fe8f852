import Foundation
import Imaging

// One harness binary, several targets, chosen by $COMET_FUZZ_TARGET:
//   png-oneshot, jpeg-oneshot   ImageDecoders.decode on the input
//   png-incremental, jpeg-incremental   IncrementalImageDecoder with input-derived chunking
//   jpeg-thumbnail   decode with DCT downsampling (maxPixelSize from the first byte)
// Limits are tightened so that a fuzzer-made header cannot ask for gigabytes legitimately.

enum FuzzTarget: String {
    case pngOneShot = "png-oneshot"
    case pngIncremental = "png-incremental"
    case jpegOneShot = "jpeg-oneshot"
    case jpegIncremental = "jpeg-incremental"
    case jpegThumbnail = "jpeg-thumbnail"

    static let current: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["COMET_FUZZ_TARGET"] ?? "jpeg-oneshot"
        guard let target = FuzzTarget(rawValue: name) else { fatalError("unknown COMET_FUZZ_TARGET \(name)") }
        return target
    }()
}

let fuzzLimits = ImageDecodingLimits(maxDimension: 8192, maxSourcePixelCount: 16 << 20, maxPixelCount: 8 << 20,
                                     maxDecoderMemory: 128 << 20, maxScans: 64)

/// Gives the decoder the bytes with the right signature so the fuzzer explores the format,
/// not the sniffing.
func withSignature(_ data: Data, for target: FuzzTarget) -> Data {
    switch target {
    case .pngOneShot, .pngIncremental:
        let signature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        return data.starts(with: signature) ? data : signature + data
    case .jpegOneShot, .jpegIncremental, .jpegThumbnail:
        let signature = Data([0xFF, 0xD8, 0xFF])
        return data.starts(with: signature) ? data : signature + data
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let target = FuzzTarget.current
    let input = Data(bytes: bytes, count: count)
    let data = withSignature(input, for: target)
    var options = ImageDecodingOptions(limits: fuzzLimits)
    switch target {
    case .pngOneShot, .jpegOneShot:
        _ = try? ImageDecoders.decode(data, options: options)
    case .jpegThumbnail:
        options.downsampling = .maxPixelSize(16 + Int(input.first ?? 0))
        _ = try? ImageDecoders.decode(data, options: options)
    case .pngIncremental, .jpegIncremental:
        let decoder = IncrementalImageDecoder(options: options)
        var offset = 0
        var step = 1 + Int(input.last ?? 0) * 3
        do {
            while offset < data.count {
                let end = min(data.count, offset + step)
                try decoder.append(data[offset..<end])
                _ = try decoder.makePreview()
                offset = end
                step = step * 5 % 997 + 1
            }
            _ = try decoder.finish()
        } catch {}
    }
    return 0
}
