import Glibc

/// Plain POSIX loopback helpers for the tests: free ports, connect probes, and a listener that
/// accepts connections (the kernel completes the handshake) but never answers.
public enum LoopbackSocket {
    /// A TCP port on 127.0.0.1 that was free a moment ago.
    public static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` now.
    public static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    /// Opens a listening socket on a free port that never accepts nor answers; returns its
    /// descriptor and port. Close the descriptor when done.
    public static func silentListener() -> (descriptor: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0)
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(bound == 0 && listen(fd, 64) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A connected socket to 127.0.0.1:`port`, or -1. Close it when done.
    public static func connected(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = loopback(port: port)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            close(fd)
            return -1
        }
        return fd
    }

    /// Sends all of `text` on `fd`; whether it went.
    @discardableResult
    public static func send(_ text: String, on fd: Int32) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Waits (at most `seconds`) for a connection on `listener` and accepts it; its descriptor,
    /// or -1. Blocks the calling thread.
    public static func accept(on listener: Int32, within seconds: Double) -> Int32 {
        var poll = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&poll, 1, Int32(seconds * 1000)) == 1 else { return -1 }
        return Glibc.accept(listener, nil, nil)
    }

    /// Reads what has arrived on `fd` (waiting at most `seconds` for the first bytes).
    public static func receive(on fd: Int32, within seconds: Double) -> String {
        var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&poll, 1, Int32(seconds * 1000)) == 1 else { return "" }
        var buffer = [UInt8](repeating: 0, count: 16384)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
    }

    /// Sends all of `bytes` on `fd`; whether they went.
    @discardableResult
    public static func send(bytes: [UInt8], on fd: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Whether the peer has closed `fd` (end of stream or reset); does not wait.
    public static func isClosedByPeer(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let received = recv(fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        if received == 0 { return true }
        return received < 0 && errno != EAGAIN && errno != EWOULDBLOCK
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
