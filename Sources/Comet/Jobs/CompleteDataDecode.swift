import Foundation

/// The inputs of the decode of the complete data (not a progressive preview), carried off the
/// graph as one object (the closures of the decoding queue's hops capture it alone), and the
/// decode itself.
///
/// A file of at most ``lightPixelLimit`` declared pixels whose decoder checks limits from the
/// header first (``ImageDecoding/checksLimitsBeforeDecoding``) is worth no thread wake-up: its
/// first attempt runs on the thread leaving the graph with the pixel limit lowered, and only a
/// `tooLarge` from that attempt sends it to a worker with the real limits.
///
/// Immutable; the incremental decoder is lent to this decode alone (``DecodeLifecycle``).
final class CompleteDataDecode: Sendable {
    /// Files up to this size may be decoded without a worker.
    static let lightByteLimit = 8 << 10
    /// The most declared pixels a decode without a worker may have: 64×64 decodes in a few
    /// microseconds, less than the two thread wake-ups of a worker round trip.
    static let lightPixelLimit = 64 * 64

    private let data: Data
    private let incremental: IncrementalDecoderBox?
    private let chunks: [Data]
    private let options: ImageDecodingOptions
    private let thumbnail: ImageRequest.ThumbnailOptions?
    private let decoders: ImageDecoderRegistry
    /// The decoder of a one-shot decode, found once (`nil`: the registry reports why it has none).
    private let decoder: (any ImageDecoding)?

    init(
        data: Data, incremental: IncrementalDecoderBox?, chunks: [Data], options: ImageDecodingOptions,
        thumbnail: ImageRequest.ThumbnailOptions?, decoders: ImageDecoderRegistry
    ) {
        self.data = data
        self.incremental = incremental
        self.chunks = chunks
        self.options = options
        self.thumbnail = thumbnail
        self.decoders = decoders
        // The format is sniffed once, here: the light attempt and the decode both use it.
        self.decoder =
            incremental == nil && !data.isEmpty ? decoders.format(of: data).flatMap(decoders.decoder(for:)) : nil
    }

    /// Whether a first attempt without a worker may be made: a one-shot decode of a small file
    /// whose decoder checks limits before decoding.
    var mayRunWithoutWorker: Bool {
        incremental == nil && data.count <= Self.lightByteLimit && decoder?.checksLimitsBeforeDecoding == true
    }

    /// The decode with the configured limits (on a worker).
    func run() -> Result<DecodedImage, ImageDecodingError> {
        run(options: options)
    }

    /// The decode with the pixel limit lowered to ``lightPixelLimit``; `nil` when the file
    /// declares more (found from its header, before anything is allocated).
    func runIfLight() -> Result<DecodedImage, ImageDecodingError>? {
        var lightOptions = options
        lightOptions.limits.maxSourcePixelCount = min(options.limits.maxSourcePixelCount, Self.lightPixelLimit)
        let result = run(options: lightOptions)
        if case .failure(.tooLarge) = result { return nil }
        return result
    }

    private func run(options: ImageDecodingOptions) -> Result<DecodedImage, ImageDecodingError> {
        let result: Result<DecodedImage, ImageDecodingError>
        if let incremental {
            result = incremental.finish(appending: chunks)
        } else {
            result = Result { () throws(ImageDecodingError) in
                if let decoder { return try decoder.decode(data, options: options) }
                return try decoders.decode(data, options: options)  // throws the registry's error
            }
        }
        return result.map { decoded -> DecodedImage in
            guard let thumbnail else { return decoded }
            var decoded = decoded
            if let image = try? thumbnail.resize.process(decoded.image) {
                decoded.image = image.carryingColorProfile(of: decoded.image)
            }
            return decoded
        }
    }
}
