/// A checked request the service answers from the result store: a thumbnail
/// (``ThumbnailRequest``) or a source's description (``InfoRequest``).
///
/// ``ServiceResponder/answer(_:ifNoneMatch:)`` answers every kind the same way: the store's
/// result under ``storeKey``, else one made by ``makeResult(with:)`` within the load shedder's
/// bounds; then 304 when `If-None-Match` names its ETag, else the result with
/// ``cachingHeaders(for:isStored:configuration:)``.
public protocol ServiceRequest: Sendable {
    /// The key of the result in a ``SharedResultStoring``: a digest of the request's lines.
    var storeKey: String { get }

    /// Makes the result with `maker` (fetch, decode, process, encode), within the processing
    /// time limit. Throws a ``ServiceError``, or `CancellationError` when cancelled.
    func makeResult(with maker: ResultMaker) async throws -> StoredResult

    /// The caching headers of an answer with `result`, stored already (`isStored`) or made for
    /// it, under `configuration` (its `Cache-Control` lifetime).
    func cachingHeaders(for result: StoredResult, isStored: Bool, configuration: ServerConfiguration)
        -> ServiceAnswer.CachingHeaders
}
