/// One download in an ``ImageDownloader``: its request and the callers waiting for it, in order.
/// Owned and mutated only under the downloader's lock.
final class ResponseHandler {
    /// One caller: its receipt ID, filter and completion.
    struct Operation {
        let receiptID: String
        let filter: ImageFilter?
        let completion: ImageDownloader.CompletionHandler?
    }

    let request: Request
    var operations: [Operation]
    /// Whether the request counts against `maximumActiveDownloads` (it was started, not queued).
    var isActive = false

    init(request: Request, operation: Operation) {
        self.request = request
        self.operations = [operation]
    }
}
