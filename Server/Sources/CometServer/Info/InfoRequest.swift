import Foundation

/// One `/info/{signature}/{options}/{source}` URL, checked and read: what its answer is made
/// from, and the key it is stored under.
///
/// Signed as processing URLs are (``URLSigner``: HMAC-SHA256 of `/{options}/{source}`, the part
/// after the signature, as imgproxy signs its info URLs), so a bad signature is the same `403`.
/// The source takes no extension: the answer is JSON. Thread-safe (a value).
public struct InfoRequest: ServiceRequest {
    /// The path after `/info`, split and decoded.
    public let path: ThumbnailPath
    /// The options.
    public let options: InfoOptions
    /// The key of the answer in a ``SharedResultStoring``: `comet:v1:` and ``key``.
    public let storeKey: String

    /// Lowercase hex SHA-256 of `info`, the canonical options and the canonical source, one per
    /// line: never a thumbnail's key, whose first line is its options.
    public var key: String { StoreKey.digest(of: storeKey) }

    /// Checks and reads the path after `/info` of an `/info` URL (`/{signature}/{options…}/{source}`
    /// in imgproxy's grammar, ``ThumbnailPath``) under `configuration` (its signer and source
    /// policy). Throws the ``ServiceError`` to answer with: 404 for a path with no signature
    /// segment, 403 for the signature, 400 for the grammar, the options or the source's spelling,
    /// 403 for the source policy; all before any fetch.
    public init(path text: String, configuration: ServerConfiguration) throws(ServiceError) {
        let (signature, signedPart) = try ThumbnailPath.split(text)
        if let signer = configuration.signer, !signer.isValid(signature, for: signedPart) { throw .badSignature }
        let path = try ThumbnailPath(signature: signature, signedPart: signedPart)
        guard path.fileExtension == nil else {
            throw .badURL("an /info URL takes no extension (the answer is JSON)")
        }
        let options = try InfoOptions.parse(path.options)
        try configuration.sourcePolicy.checkCanonical(path.canonicalSource)
        self.path = path
        self.options = options
        var hash = SHA256State()
        hash.update("info\n")
        hash.update(options.canonical)
        hash.update("\n")
        hash.update(path.canonicalSource)
        storeKey = StoreKey.make(hash)
    }

    /// Makes the JSON with `maker` (``ResultMaker/makeInfo(_:)``).
    public func makeResult(with maker: ResultMaker) async throws -> StoredResult {
        try await maker.makeInfo(self)
    }

    /// The configuration's `Cache-Control`; no `Vary` and no `Comet-Color` (the answer describes
    /// the source and holds no pixels).
    public func cachingHeaders(for result: StoredResult, isStored: Bool, configuration: ServerConfiguration)
        -> ServiceAnswer.CachingHeaders
    {
        ServiceAnswer.CachingHeaders(
            cacheControl: "public, max-age=\(configuration.cacheMaxAge)", variesOnAccept: false, isStored: isStored)
    }
}
