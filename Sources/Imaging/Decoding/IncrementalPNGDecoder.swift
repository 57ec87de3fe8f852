import CImageCodecs
import Foundation

/// libpng's progressive reader fed chunk by chunk. Previews exist for interlaced files: after
/// each Adam7 pass, every pixel takes the value of the nearest pixel decoded so far above and
/// to its left (the pass grids nest, so that pixel is always known). Previews are turned by the
/// eXIf orientation like the final image, once the chunk has arrived (an eXIf chunk after the
/// image data is known only at the end, so the previews before it come out as stored).
final class IncrementalPNGDecoder: IncrementalImageDecoding {
    private let session: PNGDecodingSession
    private var previewedPasses = 0

    init(options: ImageDecodingOptions) throws(ImageDecodingError) {
        session = try PNGDecodingSession(options: options)
    }

    func append(_ chunk: Data) throws(ImageDecodingError) {
        let status = chunk.withUnsafeBytes { bytes in
            cic_png_feed(session.decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        try session.check(status)
    }

    /// Block sizes of the known-pixel grid after 1...6 completed Adam7 passes.
    private static let blocks: [(width: Int, height: Int)] = [(8, 8), (4, 8), (4, 4), (2, 4), (2, 2), (1, 2)]

    func makePreview() throws(ImageDecodingError) -> Image? {
        guard let info = session.info, info.is_interlaced != 0, !session.isFinished,
            let source = cic_png_pixels(session.decoder)
        else { return nil }
        let passes = Int(cic_png_completed_passes(session.decoder))
        guard passes > previewedPasses, passes >= 1, passes <= Self.blocks.count else { return nil }
        previewedPasses = passes
        let (blockWidth, blockHeight) = Self.blocks[passes - 1]
        let width = Int(info.width), height = Int(info.height)
        // Interlaced rows are converted once the last pass is in: a preview converts its copy.
        let transform = session.convertsRows ? session.color.transform : nil
        var preview = Image(width: width, height: height, isOpaque: info.has_alpha == 0) { pixels, bytesPerRow in
            let input = UnsafeRawPointer(source)
            let output = pixels.baseAddress!
            for y in 0..<height {
                let sourceRow = (input + (y - y % blockHeight) * bytesPerRow).assumingMemoryBound(to: UInt32.self)
                let row = (output + y * bytesPerRow).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width { row[x] = sourceRow[x - x % blockWidth] }
            }
            transform?.convert(pixels, bytesPerRow: bytesPerRow, width: width, height: height)
        }
        preview.colorProfile = session.color.keptProfile
        preview.isGray = session.isGray
        return session.appliesOrientation ? preview.applying(session.orientation) : preview
    }

    func finish() throws(ImageDecodingError) -> DecodedImage {
        try session.finish()
    }
}
