import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a load's body reaches ``DataLoading``'s `didReceiveData`.
///
/// The pipeline asks for ``eachChunk`` when it decodes progressively (every chunk can improve
/// the preview) and for ``batched`` otherwise. A loader may deliver more often than asked
/// (``URLSessionDataLoader`` delivers every chunk whatever is asked), never less.
public enum DataDelivery: Sendable, Hashable {
    /// Every chunk as it arrives.
    case eachChunk
    /// As few pieces as the body allows: what has arrived is passed on at most about every
    /// 0.1 s (so progress keeps moving on a slow network), and a body that arrives within that
    /// time is passed once, whole (by ``DataLoader`` without a copy).
    case batched
}

extension DataLoading {
    /// Loads with the chunks delivered as `delivery` asks. The default implementation ignores
    /// `delivery` and calls ``loadData(with:didReceiveData:completion:)``.
    public func loadData(
        with request: URLRequest,
        delivery: DataDelivery,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any DataLoadingTask {
        loadData(with: request, didReceiveData: didReceiveData, completion: completion)
    }
}
