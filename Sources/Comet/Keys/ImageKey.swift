import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What identifies an image in the graph and the caches: the bytes (``ImageRequest/dataKey``),
/// the thumbnail settings and the processors applied, in order; for a job, also where the bytes
/// may come from (``CacheReadPolicy``).
///
/// Equality and hashing (the job key) use the processors' cheap
/// ``ImageProcessing/hashableIdentifier`` (no string is built on the memory-cache path);
/// ``isSameImage(as:)`` and ``imageHash`` (the memory-cache key) leave the source policy out;
/// ``diskKey`` spells out the processors' stable identifiers.
struct ImageKey: Hashable, @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: immutable; `identifiers` is `[AnyHashable]`, which is not Sendable,
    // but each one wraps a processor's Sendable `hashableIdentifier`.
    let dataKey: String
    let thumbnail: ImageRequest.ThumbnailOptions?
    let processors: [any ImageProcessing]
    /// For the decode stage of a request whose first processor is a resize: the reduced size the
    /// decoder may stop at (see ``ImageProcessors/Resize/decodingDownsampling``). Part of the
    /// job key (such a decode is not shared with a full-size one), not of the cache keys: a
    /// full-size image in the memory cache is as good an input for the resize.
    let decodeDownsampling: ImageDecodingOptions.Downsampling?
    /// Every frame of an animation is decoded (``ImageRequest/Options/decodeAnimation``, for a
    /// plain decode: no thumbnail, no processors).
    let decodesAnimation: Bool
    /// The file's colour numbers are kept instead of converted to sRGB
    /// (``ImageRequest/Options/keepOriginalColors``): a different image, so part of every key.
    let keepsOriginalColors: Bool
    /// Where the bytes may come from: part of the job key, not of the cache keys.
    let source: CacheReadPolicy
    /// The processors' hashable identifiers, made once: equality and hashing compare these.
    private let identifiers: [AnyHashable]
    /// The hash of everything equality compares, made once: a key is made once per request
    /// and hashed by several dictionaries (job pools, the memory cache), which then hash an
    /// `Int` instead of the URL.
    let precomputedHash: Int
    /// The hash of what ``isSameImage(as:)`` compares (``precomputedHash`` for the default
    /// source policy).
    let imageHash: Int

    init(
        dataKey: String, thumbnail: ImageRequest.ThumbnailOptions?, processors: [any ImageProcessing],
        decodeDownsampling: ImageDecodingOptions.Downsampling? = nil, decodesAnimation: Bool = false,
        keepsOriginalColors: Bool = false, source: CacheReadPolicy = .default
    ) {
        self.keepsOriginalColors = keepsOriginalColors
        self.decodesAnimation = decodesAnimation && thumbnail == nil && processors.isEmpty && decodeDownsampling == nil
        self.dataKey = dataKey
        self.thumbnail = thumbnail
        self.processors = processors
        self.decodeDownsampling = decodeDownsampling
        self.source = source
        let identifiers = processors.map(\.hashableIdentifier)
        self.identifiers = identifiers
        var hasher = Hasher()
        hasher.combine(dataKey)
        hasher.combine(thumbnail)
        hasher.combine(decodeDownsampling)
        hasher.combine(self.decodesAnimation)
        hasher.combine(keepsOriginalColors)
        for identifier in identifiers { hasher.combine(identifier) }
        imageHash = hasher.finalize()
        if source.isDefault {
            precomputedHash = imageHash
        } else {
            var withSource = Hasher()
            withSource.combine(imageHash)
            withSource.combine(source)
            precomputedHash = withSource.finalize()
        }
    }

    init(_ request: ImageRequest) {
        self.init(
            dataKey: request.makeDataKey(), thumbnail: request.thumbnail, processors: request.processors,
            decodesAnimation: request.options.contains(.decodeAnimation),
            keepsOriginalColors: request.options.contains(.keepOriginalColors), source: CacheReadPolicy(request))
    }

    /// The key of the first `count` processors' result (0: the decoded image).
    func prefix(_ count: Int) -> ImageKey {
        ImageKey(
            dataKey: dataKey, thumbnail: thumbnail, processors: Array(processors.prefix(count)),
            keepsOriginalColors: keepsOriginalColors, source: source)
    }

    /// The key of the decode that feeds this key's processors: downsampled to what the first
    /// processor needs when it is a resize, there is no thumbnail setting, and `isEnabled`.
    func decodeStage(downsamplingForResize isEnabled: Bool) -> ImageKey {
        guard isEnabled, thumbnail == nil, let resize = processors.first as? ImageProcessors.Resize,
            let downsampling = resize.decodingDownsampling
        else { return prefix(0) }
        return ImageKey(
            dataKey: dataKey, thumbnail: nil, processors: [], decodeDownsampling: downsampling,
            keepsOriginalColors: keepsOriginalColors, source: source)
    }

    /// The job key's equality: the same image, fetched under the same source policy.
    static func == (lhs: ImageKey, rhs: ImageKey) -> Bool {
        lhs.precomputedHash == rhs.precomputedHash && lhs.source == rhs.source && lhs.isSameImage(as: rhs)
    }

    /// The memory-cache key's equality: the same bytes, thumbnail, processors, downsampling,
    /// animation and colour handling, wherever the bytes came from.
    func isSameImage(as other: ImageKey) -> Bool {
        imageHash == other.imageHash && dataKey == other.dataKey && thumbnail == other.thumbnail
            && identifiers == other.identifiers
            && decodeDownsampling == other.decodeDownsampling && decodesAnimation == other.decodesAnimation
            && keepsOriginalColors == other.keepsOriginalColors
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(precomputedHash)
    }

    /// The memory-cache key (a request keeps its own made: ``ImageRequest/memoryCacheKey``).
    var memoryKey: ImageCacheKey { ImageCacheKey(keyBox: ImageRequest.KeyBox(self)) }

    /// The disk-cache key of the encoded image: the data key plus what was done to it. Equal to
    /// the data key for a plain decode (no thumbnail, no processors).
    var diskKey: String {
        var key = dataKey
        if let thumbnail { key += "#" + thumbnail.description }
        if decodesAnimation { key += "#animation" }
        if keepsOriginalColors { key += "#original-colors" }
        for processor in processors { key += "#" + processor.identifier }
        return key
    }

    var description: String { diskKey }
}
