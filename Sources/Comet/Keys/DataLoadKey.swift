/// The key of a download in flight: requests with equal keys share one fetch.
///
/// The request's data key (see ``ImageRequest/dataKey``: its `imageID`, or its URL plus a digest
/// of the method, headers and body that change the bytes) and its ``CacheReadPolicy``.
struct DataLoadKey: Hashable, Sendable, CustomStringConvertible {
    let dataKey: String
    let source: CacheReadPolicy

    init(_ request: ImageRequest) {
        dataKey = request.dataKey
        source = CacheReadPolicy(request)
    }

    var description: String { dataKey }
}
