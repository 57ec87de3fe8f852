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

    /// Sends `GET {target}` to 127.0.0.1:`port` and reads the answer until it is whole or the
    /// server closes the connection (`Connection: close`). Blocks the calling thread for at most ~30 s.
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
            if isComplete(received) { break }
        }
        return parse(received)
    }

    /// Runs ``get(port:target:)`` on a thread of its own (``onOwnThread(_:)``).
    static func get(port: Int, target: String) async -> Answer {
        await onOwnThread { get(port: port, target: Array(target.utf8)) }
    }

    /// Whether `bytes` hold a whole answer: its head and as many body bytes as its
    /// `Content-Length` says (the server may keep the connection a moment longer).
    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        guard let field = head.range(of: "\r\ncontent-length:") else { return false }
        let value = head[field.upperBound...].prefix { $0 != "\r" }.trimmingCharacters(in: .whitespaces)
        guard let length = Int(value) else { return false }
        return text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length
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

/// Runs blocking or long `work` on a new thread and returns its result: neither on Swift
/// concurrency's threads nor on Dispatch's global queue, whose few threads (as many as cores on
/// Linux) also run the servers' host lookups, for every test running beside.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
