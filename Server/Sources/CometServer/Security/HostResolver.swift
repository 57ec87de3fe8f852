import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resolves a host name to its IP addresses: by default with `getaddrinfo` (the system
/// resolver), off the caller's thread.
///
/// Thread-safe (its lookup is a `@Sendable` function).
public struct HostResolver: Sendable {
    /// One resolved address: 4 bytes for IPv4, 16 for IPv6.
    public typealias Address = [UInt8]

    private let lookup: @Sendable (String) -> Result<[Address], ServiceError>

    /// Creates a resolver that asks the system (`getaddrinfo`).
    public init() {
        lookup = Self.resolve
    }

    /// Creates a resolver that answers with `lookup` (a blocking function, run off Swift
    /// concurrency's threads): a test's DNS, or a cache in front of the system's.
    public init(lookup: @escaping @Sendable (String) -> Result<[Address], ServiceError>) {
        self.lookup = lookup
    }

    /// The addresses of `host` (an IP literal resolves to itself). Throws ``ServiceError``
    /// (502) when the name does not resolve. Runs the lookup on a Dispatch worker so it never
    /// blocks Swift concurrency's few threads.
    public func addresses(of host: String) async throws(ServiceError) -> [Address] {
        let lookup = lookup
        let result: Result<[Address], ServiceError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: lookup(host)) }
        }
        return try result.get()
    }

    /// `address` as text (`inet_ntop`): dotted IPv4, or IPv6 without brackets.
    public static func presentation(of address: Address) -> String {
        let family = address.count == 4 ? AF_INET : AF_INET6
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = address.withUnsafeBytes { bytes in
            text.withUnsafeMutableBufferPointer {
                inet_ntop(family, bytes.baseAddress, $0.baseAddress, socklen_t($0.count))
            }
        }
        guard written != nil else { return "" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The blocking resolution behind ``addresses(of:)``.
    public static func resolve(_ host: String) -> Result<[Address], ServiceError> {
        // URL.host keeps IPv6 literals' brackets on some platforms.
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc) || canImport(Musl)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            return .failure(.sourceError("the source host \(host) does not resolve (\(reason))"))
        }
        defer { freeaddrinfo(first) }
        var addresses: [Address] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr {
                switch current.pointee.ai_family {
                case AF_INET:
                    socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                        var address = pointer.pointee.sin_addr
                        addresses.append(withUnsafeBytes(of: &address) { Array($0) })
                    }
                case AF_INET6:
                    socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                        var address = pointer.pointee.sin6_addr
                        addresses.append(withUnsafeBytes(of: &address) { Array($0) })
                    }
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else { return .failure(.sourceError("the source host \(host) has no IP address")) }
        return .success(addresses)
    }
}
