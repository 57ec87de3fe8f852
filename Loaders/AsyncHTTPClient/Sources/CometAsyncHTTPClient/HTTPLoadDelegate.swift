import AsyncHTTPClient
import Comet
import Foundation
import NIOCore
import NIOHTTP1
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// AsyncHTTPClient's delegate for one request of an ``HTTPLoad``: checks the status and the
/// length, streams the body to the load, and hands a redirect back to it. A response whose body
/// is empty is delivered as one empty chunk before the load finishes (`DataLoading`'s contract).
///
/// AsyncHTTPClient calls a delegate on its request's event loop, one call at a time, so its
/// fields need no lock (`@unchecked Sendable` for that reason only).
final class HTTPLoadDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = Void

    private let load: HTTPLoad
    private let url: URL
    private let maximumSize: Int?
    private var response: HTTPURLResponse?
    private var redirect: (status: Int, location: String)?
    private var expectedLength: Int?
    private var received = 0

    private static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    init(load: HTTPLoad, url: URL, maximumSize: Int?) {
        self.load = load
        self.url = url
        self.maximumSize = maximumSize
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let status = Int(head.status.code)
        if Self.redirectStatuses.contains(status), let location = head.headers.first(name: "Location") {
            // Its body is read and dropped; the load follows once this request has finished.
            redirect = (status, location)
            return task.eventLoop.makeSucceededVoidFuture()
        }
        guard (200...299).contains(status) else {
            task.fail(reason: Self.failure(status: status, headers: head.headers))
            return task.eventLoop.makeSucceededVoidFuture()
        }
        let isIdentity = (head.headers.first(name: "Content-Encoding") ?? "identity").lowercased() == "identity"
        if let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length >= 0 {
            if let maximumSize, length > maximumSize {
                task.fail(reason: DataLoaderError.responseTooLarge(limit: maximumSize))
                return task.eventLoop.makeSucceededVoidFuture()
            }
            expectedLength = isIdentity ? length : nil
        }
        response = HTTPURLResponse(
            url: url, statusCode: status, httpVersion: "HTTP/\(head.version.major).\(head.version.minor)",
            headerFields: Self.headerFields(head.headers))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard let response else { return task.eventLoop.makeSucceededVoidFuture() }
        received += buffer.readableBytes
        if let maximumSize, received > maximumSize {
            task.fail(reason: DataLoaderError.responseTooLarge(limit: maximumSize))
        } else {
            load.deliver(Data(buffer.readableBytesView), response: response)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        load.finish(LoadFailure.map(error, url: url, received: received, expected: expectedLength))
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        if let redirect {
            load.redirect(from: url, status: redirect.status, location: redirect.location)
        } else if let expectedLength, received < expectedLength {
            load.finish(DataLoaderError.incompleteBody(received: received, expected: expectedLength))
        } else {
            if received == 0, let response { load.deliver(Data(), response: response) }
            load.finish(nil)
        }
    }

    /// The error of a status outside 200...299: with its `Retry-After` for 429 and 503.
    private static func failure(status: Int, headers: HTTPHeaders) -> DataLoaderError {
        guard status == 429 || status == 503, let header = headers.first(name: "Retry-After"),
            let seconds = ImagePipeline.RetryPolicy.parseRetryAfter(header)
        else { return .statusCode(status) }
        return .retryAfter(statusCode: status, seconds: seconds)
    }

    /// The header fields as `HTTPURLResponse` takes them: repeated names joined with ", ".
    private static func headerFields(_ headers: HTTPHeaders) -> [String: String] {
        var fields: [String: String] = [:]
        var spelling: [String: String] = [:]  // lowercased name -> the first spelling seen
        for (name, value) in headers {
            if let key = spelling[name.lowercased()], let existing = fields[key] {
                fields[key] = existing + ", " + value
            } else {
                spelling[name.lowercased()] = name
                fields[name] = value
            }
        }
        return fields
    }
}
