import Comet
import Foundation

/// One thumbnail URL, checked and read: everything a request is answered from before the result
/// store is asked, and the key its result is stored under.
///
/// Made from the URL's three segments over their UTF-8 bytes: the path's grammar, the signature
/// (HMAC-SHA256), the options, the format (the URL's, else the `Accept` header's), the source in
/// its canonical form and the source policy's checks that need no resolution. A cache hit costs
/// this and the store's lookup. Thread-safe (a value).
public struct ThumbnailRequest: ServiceRequest {
    /// The path, split and decoded.
    public let path: ThumbnailPath
    /// The options, as the URL gives them (with the format it asks for, if any).
    public let options: ThumbnailOptions
    /// The format the result is made in.
    public let choice: FormatChoice
    /// Whether the format came from `Accept` (the answer then varies on it).
    public let variesOnAccept: Bool
    /// The key of the result in a ``SharedResultStoring``: `comet:v1:` and ``key``.
    public let storeKey: String

    /// Lowercase hex SHA-256 of the result's identity: the canonical options (without the
    /// format), the format choice and the canonical source, one per line, and with `wm` the
    /// watermark image's ``WatermarkImage/id``.
    public var key: String { StoreKey.digest(of: storeKey) }

    /// Whether an animated source gives an animated result: the format keeps animations (WebP,
    /// GIF, or the source's own, ``FormatChoice/source``, which is GIF for an animation), the
    /// server keeps them (``SourceLimits/maximumAnimationFrames`` above 1) and the source's colour
    /// profile is not kept (`scp:0`; the animation encoders write none).
    /// Part of the key, so an animated result and the still one of the same options and format
    /// (on a server that keeps no animation) are stored apart.
    public let keepsAnimation: Bool

    /// The server's watermark image when the options draw it (`wm`), else `nil`.
    public let watermark: WatermarkImage?

    /// What the source may be: the server's limits, lowered by the URL's security options.
    public let sourceLimits: SourceLimits

    /// Whether the result keeps the source's colour profile (`scp:0`).
    public var keepsColorProfile: Bool { options.stripsColorProfile == false }

    /// Checks and reads a service URL's `path` (without its query; imgproxy's grammar,
    /// ``ThumbnailPath``), with the request's `Accept` header, under `configuration` (its signer,
    /// output limits, AVIF negotiation, presets and source policy). Throws the ``ServiceError``
    /// to answer with: 404 for a path with no signature segment, 403 for the signature, 400 for
    /// the grammar, the options or the source's spelling, 403 for a security option the server
    /// does not allow (``ServerConfiguration/allowsSecurityOptions``) and for the source policy.
    public init(path text: String, accept: String?, configuration: ServerConfiguration) throws(ServiceError) {
        let (signature, signedPart) = try ThumbnailPath.split(text)
        // Read through the configuration in place: the signer, the presets and the policy are
        // large values, and a copy of each on every request showed in the URL path's profile.
        if configuration.signer?.isValid(signature, for: signedPart) == false { throw .badSignature }
        let path = try ThumbnailPath(
            signature: signature, signedPart: signedPart,
            mode: configuration.presets.onlyPresets ? .onlyPresets : .options)
        let parsed = try ThumbnailOptions.parse(
            path.options, maximumDimension: configuration.maximumOutputDimension,
            presets: configuration.presets)
        if parsed.hasSecurityOptions, !configuration.allowsSecurityOptions {
            throw .securityOptionsRefused
        }
        if let expires = parsed.expires, Double(expires) <= Date().timeIntervalSince1970 {
            throw .notFound("the URL expired at \(expires) (exp)")
        }
        if parsed.watermark != nil, configuration.watermark == nil {
            throw .badOptions("wm: this server has no watermark image (comet-server --watermark PATH)")
        }
        watermark = parsed.watermark == nil ? nil : configuration.watermark
        let extensionFormat = path.fileExtension.flatMap(OutputFormat.init(name:))
        // As imgproxy: the extension is read after the options, so it wins over `f`.
        if let format = extensionFormat ?? parsed.format {
            choice = .exactly(format)
            variesOnAccept = false
        } else {
            choice = FormatChoice.negotiate(accept: accept, allowsAVIF: configuration.negotiatesAVIF)
            variesOnAccept = true
        }
        try configuration.sourcePolicy.checkCanonical(path.canonicalSource)
        sourceLimits = parsed.sourceLimits(under: configuration)
        keepsAnimation =
            sourceLimits.maximumAnimationFrames > 1 && parsed.stripsColorProfile != false
            && (choice == .source || choice.exactFormat?.format.supportsAnimation == true)
        // The format is in the key through `choice`.
        storeKey = Self.storeKey(
            options: parsed.canonicalBytes(includingFormat: false), choice: choice.keyComponent,
            animation: keepsAnimation, source: path.canonicalSource, watermark: watermark?.id)
        // Last, so that both are moved in rather than copied.
        self.path = path
        self.options = parsed
    }

    /// The `Content-Disposition` of a result of `contentType`, or `nil` when neither `fn` nor
    /// `att` asks for one. The name is `fn`'s, else the source's last path segment (without its
    /// extension, bytes other than letters, digits, `.`, `_`, `~` and `-` made `_`), else
    /// `image`; the result format's extension is added. A name beyond ASCII is also given as
    /// RFC 8187's `filename*`.
    public func contentDisposition(contentType: String) -> String? {
        guard options.filename != nil || options.returnsAttachment == true else { return nil }
        let fileExtension = ImageFormat(mimeType: contentType).map { "." + $0.preferredFileExtension } ?? ""
        let name = options.filename ?? Self.sourceName(path.canonicalSource)
        let kind = options.returnsAttachment == true ? "attachment" : "inline"
        let fallback = String(
            decoding: name.utf8.map { ASCII.isUnreserved($0) ? $0 : UInt8(ascii: "_") }, as: UTF8.self)
        guard fallback != name else { return "\(kind); filename=\"\(name)\(fileExtension)\"" }
        var encoded: [UInt8] = []
        for byte in (name + fileExtension).utf8 {
            if ASCII.isUnreserved(byte) { encoded.append(byte) } else { ASCII.appendEscape(byte, to: &encoded) }
        }
        return "\(kind); filename=\"\(fallback)\(fileExtension)\"; filename*=UTF-8''"
            + String(decoding: encoded, as: UTF8.self)
    }

    /// The source URL's last path segment without its extension, made safe for a header, or
    /// `image` when it has none.
    private static func sourceName(_ source: String) -> String {
        let segment = URL(string: source)?.deletingPathExtension().lastPathComponent ?? ""
        let safe = String(decoding: segment.utf8.map { ASCII.isUnreserved($0) ? $0 : UInt8(ascii: "_") }, as: UTF8.self)
        return safe.isEmpty || safe == "/" || safe == "_" ? "image" : String(safe.prefix(128))
    }

    /// What the result is made from: the options' plan.
    public var plan: ThumbnailPlan { ThumbnailPlan(options, watermark: watermark) }

    /// The format the URL asks for (`f` or the extension), if any: a skipped source format is
    /// sent as it is only when the URL asks for none or for that one, as in imgproxy.
    public var askedFormat: OutputFormat? { variesOnAccept ? nil : choice.exactFormat }

    /// Makes the image with `maker` (``ResultMaker/makeThumbnail(_:)``).
    public func makeResult(with maker: ResultMaker) async throws -> StoredResult {
        try await maker.makeThumbnail(self)
    }

    /// The configuration's `Cache-Control` (a shorter lifetime when `exp` ends the URL
    /// sooner), `Vary: Accept` when the format was negotiated, `Comet-Color` and the
    /// `Content-Disposition` of `fn` and `att`.
    public func cachingHeaders(for result: StoredResult, isStored: Bool, configuration: ServerConfiguration)
        -> ServiceAnswer.CachingHeaders
    {
        var maxAge = configuration.cacheMaxAge
        if let expires = options.expires {
            // A cache must not keep serving the URL past its end (expires is after now: checked).
            maxAge = min(maxAge, max(0, expires - Int(Date().timeIntervalSince1970)))
        }
        return ServiceAnswer.CachingHeaders(
            cacheControl: "public, max-age=\(maxAge)", variesOnAccept: variesOnAccept, isStored: isStored,
            color: keepsColorProfile ? .source : .srgb,
            contentDisposition: contentDisposition(contentType: result.contentType))
    }

    /// The `StoreKey` of the three lines (four with a watermark's name).
    private static func storeKey(
        options: [UInt8], choice: String, animation: Bool, source: String, watermark: String?
    ) -> String {
        var hash = SHA256State()
        hash.update(options)
        hash.update("\n")
        hash.update(choice)
        if animation { hash.update("+animation") }
        hash.update("\n")
        hash.update(source)
        if let watermark {
            hash.update("\n")
            hash.update(watermark)
        }
        return StoreKey.make(hash)
    }
}
