import Foundation
import ServerTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// GET requests whose target is sent byte for byte, on a socket of their own: URLSession
/// (libcurl) and `URL` would escape, reject or normalise the spellings the trick tests send.
enum RawHTTP {
    /// An answer's status (0 when none came) and its JSON error code, if any.
    struct Answer: Sendable {
        var status: Int
        var errorCode: String?
    }

    /// Sends `GET {target}` to 127.0.0.1:`port` and reads the answer until the server closes
    /// the connection (`Connection: close`). Blocks the calling thread for at most ~30 s.
    static func get(port: Int, target: [UInt8]) -> Answer {
        let fd = LoopbackSocket.connected(port: port)
        guard fd >= 0 else { return Answer(status: 0) }
        defer { close(fd) }
        let request =
            Array("GET ".utf8) + target
            + Array(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAccept: image/jpeg\r\n\r\n".utf8)
        guard LoopbackSocket.send(bytes: request, on: fd) else { return Answer(status: 0) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&poll, 1, 1000) >= 0 else { break }
            guard poll.revents != 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return parse(received)
    }

    /// Runs ``get(port:target:)`` off Swift concurrency's threads.
    static func get(port: Int, target: String) async -> Answer {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: get(port: port, target: Array(target.utf8))) }
        }
    }

    private static func parse(_ bytes: [UInt8]) -> Answer {
        let text = String(decoding: bytes, as: UTF8.self)
        let statusLine = text.prefix { $0 != "\r" }.split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return Answer(status: 0) }
        var code: String?
        if let range = text.range(of: "\r\n\r\n"),
            let object = try? JSONSerialization.jsonObject(with: Data(text[range.upperBound...].utf8))
                as? [String: Any],
            let error = object["error"] as? [String: Any]
        {
            code = error["code"] as? String
        }
        return Answer(status: status, errorCode: code)
    }
}
