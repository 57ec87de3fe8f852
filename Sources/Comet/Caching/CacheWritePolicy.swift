import Foundation

/// What a pipeline reads from and writes to its disk cache for a request: the one place that
/// turns ``ImagePipeline/DataCachePolicy`` and a request's options into decisions.
///
/// - *Original data* (the downloaded bytes, keyed by the request's `imageID`) is stored by
///   `.storeOriginalData` and `.storeAll` always, by `.automatic` for requests with no processors
///   and no thumbnail, never by `.storeEncodedImages`.
/// - *Encoded images* (a decoded or processed result, encoded, keyed by ``ImageKey/diskKey``) are
///   stored by `.storeEncodedImages` always, by `.storeAll` and `.automatic` for transformed
///   results (processors or a thumbnail), never by `.storeOriginalData`.
/// - Nothing is stored for `file:` and `data:` URLs (the source is already local), nor with
///   `.disableDiskCacheWrites`; nothing is read with `.disableDiskCacheReads` or
///   `.reloadIgnoringCachedData`; with no data cache, nothing at all.
struct CacheWritePolicy: Sendable {
    let policy: ImagePipeline.DataCachePolicy
    let hasDataCache: Bool

    init(policy: ImagePipeline.DataCachePolicy, hasDataCache: Bool) {
        self.policy = policy
        self.hasDataCache = hasDataCache
    }

    init(_ configuration: ImagePipeline.Configuration) {
        self.init(
            policy: configuration.dataCachePolicy,
            hasDataCache: configuration.dataCache != nil || configuration.hooks.dataCache != nil)
    }

    /// Whether the downloaded bytes of `request` are stored once they decoded clean.
    func storesOriginalData(for request: ImageRequest) -> Bool {
        guard writesDiskCache(for: request) else { return false }
        switch policy {
        case .storeOriginalData, .storeAll: return true
        case .automatic: return !isTransformed(request)
        case .storeEncodedImages: return false
        }
    }

    /// Whether a final result of `request` is stored encoded; `processed`: it is the output of
    /// processors (else a decode, perhaps a thumbnail).
    func storesEncodedImage(for request: ImageRequest, processed: Bool) -> Bool {
        guard writesDiskCache(for: request) else { return false }
        return policyKeepsEncodedImages(for: request, processed: processed)
    }

    /// Whether to look for an encoded result of `request` in the disk cache before computing it.
    func readsEncodedImage(for request: ImageRequest, processed: Bool) -> Bool {
        guard readsDiskCache(for: request), !isLocal(request) else { return false }
        return policyKeepsEncodedImages(for: request, processed: processed)
    }

    /// Whether to look for the original data of `request` in the disk cache before loading it.
    func readsOriginalData(for request: ImageRequest) -> Bool {
        readsDiskCache(for: request)
    }

    private func policyKeepsEncodedImages(for request: ImageRequest, processed: Bool) -> Bool {
        switch policy {
        case .storeOriginalData: return false
        case .storeEncodedImages: return true
        case .storeAll, .automatic: return processed || request.thumbnail != nil
        }
    }

    private func readsDiskCache(for request: ImageRequest) -> Bool {
        hasDataCache && !request.options.contains(.disableDiskCacheReads)
            && !request.options.contains(.reloadIgnoringCachedData)
    }

    private func writesDiskCache(for request: ImageRequest) -> Bool {
        hasDataCache && !request.options.contains(.disableDiskCacheWrites) && !isLocal(request)
            && request.imageID != nil
    }

    private func isTransformed(_ request: ImageRequest) -> Bool {
        !request.processors.isEmpty || request.thumbnail != nil
    }

    private func isLocal(_ request: ImageRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "file" || scheme == "data"
    }
}
