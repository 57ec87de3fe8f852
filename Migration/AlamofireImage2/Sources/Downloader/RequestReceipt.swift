/// What ``ImageDownloader/downloadImage(URLRequest:receiptID:filter:progress:progressQueue:completion:)``
/// returns: the request doing the download and the ID of this caller's place in it. Pass it to
/// ``ImageDownloader/cancelRequestForRequestReceipt(_:)`` to cancel just this caller.
public final class RequestReceipt: Sendable {
    /// The request; shared by every receipt for the same URL while it downloads.
    public let request: Request
    /// This caller's ID (a UUID string unless one was given).
    public let receiptID: String

    init(request: Request, receiptID: String) {
        self.request = request
        self.receiptID = receiptID
    }
}
