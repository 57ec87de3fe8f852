import CImageCodecs
import Foundation

/// libjpeg's suspending source plus buffered-image mode: progressive scans are consumed as they
/// arrive, and a preview renders the coefficients of every completed scan.
final class IncrementalJPEGDecoder: IncrementalImageDecoding {
    private let options: ImageDecodingOptions
    private let decoder: OpaquePointer
    private var info: cic_jpeg_info?
    private var orientation = ImageOrientation.up
    private var completedScans = 0
    private var previewedScans = 0
    private var reachedEnd = false
    private var color = ColorResolution.untagged

    init(options: ImageDecodingOptions) throws(ImageDecodingError) {
        guard let decoder = cic_jpeg_create(options.limits.cLimits, options.isStrict ? 1 : 0) else {
            throw .corrupt(.jpeg, reason: "libjpeg could not start")
        }
        self.options = options
        self.decoder = decoder
    }

    deinit { cic_jpeg_destroy(decoder) }

    private func error(_ status: cic_status) -> ImageDecodingError {
        decodingError(
            status, type: .jpeg, message: String(cString: cic_jpeg_message(decoder)),
            width: Int(info?.width ?? 0), height: Int(info?.height ?? 0))
    }

    func append(_ chunk: Data) throws(ImageDecodingError) {
        let status = chunk.withUnsafeBytes { bytes in
            cic_jpeg_append(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        guard status == CIC_OK else { throw error(status) }
        if info == nil {
            var header = cic_jpeg_info()
            var status = cic_jpeg_incremental_header(decoder, &header)
            if status == CIC_NEED_MORE_DATA { return }
            guard status == CIC_OK else { throw error(status) }
            var length = 0
            if let bytes = cic_jpeg_buffered_bytes(decoder, &length) {
                orientation = EXIFOrientationReader.orientation(
                    inJPEG: UnsafeRawBufferPointer(start: bytes, count: length))
            }
            status = cic_jpeg_set_scale(
                decoder, JPEGDecoder.denominator(for: options, info: header, orientation: orientation), &header)
            guard status == CIC_OK else { throw error(status) }
            color = JPEGDecoder.resolveColor(decoder, options: options)
            info = header
        }
        var scans: Int32 = 0
        var end: Int32 = 0
        let consumed = cic_jpeg_consume(decoder, &scans, &end)
        guard consumed == CIC_OK else { throw error(consumed) }
        completedScans = Int(scans)
        reachedEnd = end != 0
    }

    func makePreview() throws(ImageDecodingError) -> Image? {
        guard let info, cic_jpeg_is_multiscan(decoder) != 0, !reachedEnd, completedScans > previewedScans else {
            return nil
        }
        var image = try render(info, cic_jpeg_render_preview)
        previewedScans = completedScans
        if options.appliesOrientation { image = image.applying(orientation) }
        image.colorProfile = color.keptProfile
        return image
    }

    func finish() throws(ImageDecodingError) -> DecodedImage {
        guard let info else { throw .incomplete(.jpeg, reason: "the header did not arrive") }
        var image = try render(info, cic_jpeg_render_final)
        if options.appliesOrientation { image = image.applying(orientation) }
        image.colorProfile = color.keptProfile
        return DecodedImage(
            image: image, type: .jpeg, sourceWidth: Int(info.width), sourceHeight: Int(info.height),
            orientation: orientation, warnings: JPEGDecoder.warnings(decoder), colorHandling: color.handling)
    }

    private func render(
        _ info: cic_jpeg_info,
        _ body: (OpaquePointer, UnsafeMutablePointer<UInt8>, Int) -> cic_status
    ) throws(ImageDecodingError) -> Image {
        try Image(width: Int(info.output_width), height: Int(info.output_height), isOpaque: true) {
            (pixels, bytesPerRow) throws(ImageDecodingError) in
            let status = body(decoder, pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), bytesPerRow)
            guard status == CIC_OK else { throw error(status) }
        }
    }
}
