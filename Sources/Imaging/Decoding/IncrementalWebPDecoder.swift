import CImageCodecs
import Foundation

/// libwebp's incremental decoder: a still WebP decodes while it arrives, and a preview shows the
/// rows decoded so far (the rest transparent). The header decides everything first (limits,
/// the scaled size of a thumbnail). Animated files are collected and decoded at the end.
final class IncrementalWebPDecoder: IncrementalImageDecoding {
    private let options: ImageDecodingOptions
    private var header = Data()
    private var decoder: OpaquePointer?
    private var collected: BufferingIncrementalDecoder?
    private var info = cic_webp_info()
    private var output = (width: 0, height: 0)
    private var isComplete = false
    private var previewedRows = 0
    /// The ICCP chunk's profile, resolved from the header (which holds every chunk before the
    /// image data): rows are converted as they are copied out.
    private var color = ColorResolution.untagged

    init(options: ImageDecodingOptions) throws(ImageDecodingError) {
        self.options = options
    }

    deinit { cic_webp_incremental_destroy(decoder) }

    func append(_ chunk: Data) throws(ImageDecodingError) {
        if let collected { return try collected.append(chunk) }
        guard decoder != nil else { return try start(with: chunk) }
        try feed(chunk)
    }

    /// Buffers bytes until the header is complete, then checks it and starts libwebp.
    private func start(with chunk: Data) throws(ImageDecodingError) {
        header.append(chunk)
        var message = CodecMessage()
        let status = header.withUnsafeBytes { bytes in
            message.withPointer {
                cic_webp_read_info(
                    bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, options.limits.cLimits, &info,
                    $0)
            }
        }
        if status == CIC_NEED_MORE_DATA { return }
        guard status == CIC_OK else {
            throw decodingError(
                status, type: .webp, message: message.text, width: Int(info.width), height: Int(info.height))
        }
        if info.has_animation != 0 {
            let collected = BufferingIncrementalDecoder(decoder: WebPDecoder(), options: options)
            self.collected = collected
            return try collected.append(header)
        }
        let resolved = header.withUnsafeBytes { bytes in
            WebPDecoder.resolveColor(
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count, options: options)
        }
        // libwebp knows the size from VP8X before the ICCP chunk is in: wait for the profile.
        guard let resolved else { return }
        color = resolved
        let width = Int(info.width), height = Int(info.height)
        output = options.downsampling?.scaledSize(width: width, height: height) ?? (width: width, height: height)
        try options.limits.checkOutputSize(
            width: output.width, height: output.height, sourceWidth: width, sourceHeight: height)
        decoder = header.withUnsafeBytes { bytes in
            message.withPointer {
                cic_webp_incremental_create(
                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count,
                    UInt32(output.width), UInt32(output.height), $0)
            }
        }
        guard decoder != nil else { throw .corrupt(.webp, reason: message.text) }
        let bytes = header
        header = Data()
        try feed(bytes)
    }

    private func feed(_ chunk: Data) throws(ImageDecodingError) {
        guard !isComplete, !chunk.isEmpty else { return }
        var message = CodecMessage()
        let status = chunk.withUnsafeBytes { bytes in
            message.withPointer {
                cic_webp_incremental_append(
                    decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, $0)
            }
        }
        switch status {
        case CIC_OK: isComplete = true
        case CIC_NEED_MORE_DATA: break
        default:
            throw decodingError(
                status, type: .webp, message: message.text, width: Int(info.width), height: Int(info.height))
        }
    }

    func makePreview() throws(ImageDecodingError) -> Image? {
        guard let decoder, !isComplete else { return nil }
        var rows: UInt32 = 0
        var stride = 0
        guard let pixels = cic_webp_incremental_rows(decoder, &rows, &stride), Int(rows) > previewedRows else {
            return nil
        }
        previewedRows = Int(rows)
        return copy(pixels, stride: stride, rows: Int(rows))
    }

    func finish() throws(ImageDecodingError) -> DecodedImage {
        if let collected { return try collected.finish() }
        guard let decoder, isComplete else {
            let reason =
                decoder == nil ? "the header did not arrive" : "\(previewedRows) of \(output.height) rows arrived"
            throw .incomplete(.webp, reason: reason)
        }
        var rows: UInt32 = 0
        var stride = 0
        guard let pixels = cic_webp_incremental_rows(decoder, &rows, &stride), Int(rows) == output.height else {
            throw .corrupt(.webp, reason: "libwebp finished without every row")
        }
        return DecodedImage(
            image: copy(pixels, stride: stride, rows: output.height), type: .webp,
            sourceWidth: Int(info.width), sourceHeight: Int(info.height), colorHandling: color.handling)
    }

    /// The first `rows` rows of libwebp's bitmap in an image of the output size (the rest transparent).
    private func copy(_ pixels: UnsafePointer<UInt8>, stride: Int, rows: Int) -> Image {
        let isOpaque = info.has_alpha == 0 && rows == output.height
        let color = self.color
        let image = Image(width: output.width, height: output.height, isOpaque: isOpaque) { destination, bytesPerRow in
            let base = destination.baseAddress!
            for y in 0..<output.height {
                if y < rows {
                    memcpy(base + y * bytesPerRow, pixels + y * stride, output.width * 4)
                } else {
                    memset(base + y * bytesPerRow, 0, output.width * 4)
                }
            }
            color.apply(to: destination, bytesPerRow: bytesPerRow, width: output.width, height: rows)
        }
        return image.withColorProfile(color.keptProfile)
    }
}
