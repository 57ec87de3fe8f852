import Foundation
import Imaging

// One harness binary, several targets, chosen by $COMET_FUZZ_TARGET:
//   png-oneshot, jpeg-oneshot   ImageDecoders.decode on the input
//   png-incremental, jpeg-incremental   IncrementalImageDecoder with input-derived chunking
//   jpeg-thumbnail   decode with DCT downsampling (maxPixelSize from the first byte)
//   webp-oneshot     WebPDecoder with every frame of animations
//   webp-thumbnail   WebPDecoder with libwebp's scaler (maxPixelSize from the first byte)
//   gif              GIFDecoder with every frame (compositing, disposal, interlace)
//   avif             AVIFDecoder (libavif + dav1d; crop, rotation, mirror)
//   heic             HEICDecoder (libheif + libde265; grids, alpha, clap/irot/imir, colr)
//   jxl              JPEGXLDecoder (libjxl; codestream and container, orientation, ICC)
// Limits are tightened so that a fuzzer-made header cannot ask for gigabytes legitimately.
// libpng and libjpeg-turbo are the system's (uninstrumented) libraries: coverage guidance sees
// Comet's Swift and C code only, so PNG inputs get their chunk CRCs fixed to stay deep.

enum FuzzTarget: String {
    case pngOneShot = "png-oneshot"
    case pngIncremental = "png-incremental"
    case jpegOneShot = "jpeg-oneshot"
    case jpegIncremental = "jpeg-incremental"
    case jpegThumbnail = "jpeg-thumbnail"
    case webpOneShot = "webp-oneshot"
    case webpThumbnail = "webp-thumbnail"
    case gif
    case avif
    case heic
    case jxl

    static let current: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["COMET_FUZZ_TARGET"] ?? "jpeg-oneshot"
        guard let target = FuzzTarget(rawValue: name) else { fatalError("unknown COMET_FUZZ_TARGET \(name)") }
        return target
    }()
}

let fuzzLimits = ImageDecodingLimits(
    maxDimension: 8192, maxSourcePixelCount: 16 << 20, maxPixelCount: 8 << 20,
    maxDecoderMemory: 128 << 20, maxScans: 64, maxFrameCount: 256,
    maxAnimationPixelCount: 16 << 20)

/// CRC-32 (ISO-HDLC, as PNG chunks use), table-driven.
let crcTable: [UInt32] = (0..<256).map { n in
    (0..<8).reduce(UInt32(n)) { c, _ in c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
}

func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    ~bytes.reduce(~UInt32(0)) { crcTable[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
}

/// Rewrites every chunk's CRC so that mutated chunks reach libpng's parsers instead of failing
/// the checksum (the fuzzer cannot see inside the uninstrumented libpng to learn CRCs).
func withFixedChunkCRCs(_ png: Data) -> Data {
    var bytes = [UInt8](png)
    var offset = 8
    while offset + 12 <= bytes.count {
        let length =
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
            | Int(bytes[offset + 3])
        let end = offset + 8 + length
        guard length >= 0, end + 4 <= bytes.count else { break }
        let crc = crc32(bytes[(offset + 4)..<end])
        for i in 0..<4 { bytes[end + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * i)) }
        offset = end + 4
    }
    return Data(bytes)
}

/// Gives the decoder the bytes with the right signature (and, for PNG, valid chunk CRCs) so
/// the fuzzer explores the format, not the sniffing and the checksums.
func withSignature(_ data: Data, for target: FuzzTarget) -> Data {
    switch target {
    case .pngOneShot, .pngIncremental:
        let signature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        return withFixedChunkCRCs(data.starts(with: signature) ? data : signature + data)
    case .jpegOneShot, .jpegIncremental, .jpegThumbnail:
        let signature = Data([0xFF, 0xD8, 0xFF])
        return data.starts(with: signature) ? data : signature + data
    case .webpOneShot, .webpThumbnail:
        // A RIFF header whose size matches what follows, so libwebp reads the chunks.
        let body =
            data.starts(with: Data("RIFF".utf8)) && data.count >= 12 ? data.dropFirst(8) : Data("WEBP".utf8) + data
        let size = UInt32(truncatingIfNeeded: body.count)
        return Data("RIFF".utf8) + withUnsafeBytes(of: size.littleEndian) { Data($0) } + body
    case .gif:
        return data.starts(with: Data("GIF8".utf8)) ? data : Data("GIF89a".utf8) + data
    case .avif, .heic, .jxl:
        return data
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let target = FuzzTarget.current
    let input = Data(bytes: bytes, count: count)
    let data = withSignature(input, for: target)
    var options = ImageDecodingOptions(limits: fuzzLimits)
    switch target {
    case .webpOneShot:
        options.decodesAnimation = true
        _ = try? WebPDecoder().decode(data, options: options)
    case .webpThumbnail:
        options.downsampling = .maxPixelSize(1 + Int(input.first ?? 0))
        _ = try? WebPDecoder().decode(data, options: options)
    case .gif:
        options.decodesAnimation = true
        _ = try? GIFDecoder().decode(data, options: options)
    case .avif:
        _ = try? AVIFDecoder().decode(data, options: options)
    case .heic:
        _ = try? HEICDecoder().decode(data, options: options)
    case .jxl:
        _ = try? JPEGXLDecoder().decode(data, options: options)
    case .pngOneShot, .jpegOneShot:
        _ = try? ImageDecoders.decode(data, options: options)
    case .jpegThumbnail:
        options.downsampling = .maxPixelSize(16 + Int(input.first ?? 0))
        _ = try? ImageDecoders.decode(data, options: options)
    case .pngIncremental, .jpegIncremental:
        let decoder = IncrementalImageDecoder(options: options)
        var offset = 0
        var step = 1 + Int(input.last ?? 0) * 3
        // A preview renders the whole image: ask for one at eight points of the input at most,
        // so large inputs cost a few renders, not hundreds.
        let previewEvery = max(1, data.count / 8)
        var nextPreview = previewEvery
        do {
            while offset < data.count {
                let end = min(data.count, offset + step)
                try decoder.append(data[offset..<end])
                if end >= nextPreview {
                    _ = try decoder.makePreview()
                    nextPreview = end + previewEvery
                }
                offset = end
                step = step * 5 % 997 + 1
            }
            _ = try decoder.finish()
        } catch {}
    }
    return 0
}
