import Foundation
import Locking
#if canImport(Glibc)
    import Glibc
#endif

/// Header values a test server's handler saw, in order.
final class SeenHeaders: Sendable {
    private let seen = Locked<[String?]>([])
    func record(_ value: String?) { seen.withLock { $0.append(value) } }
    var values: [String?] { seen.withLock { $0 } }
}

/// A loopback port nothing listens on: bound, read, and closed again.
func closedLoopbackPort() throws -> UInt16 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw POSIXError(.EIO) }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
        }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return UInt16(bigEndian: address.sin_port)
}
