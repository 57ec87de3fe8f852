import AsyncHTTPClient
import Foundation
import Locking
import NIOCore

/// The `HTTPClient`s that connect each host to the one address its resolver chose
/// (AsyncHTTPClient's `dnsOverride`, which keeps the host as the `Host` header and the TLS
/// server name): one client per host, replaced when the host's address changes.
///
/// A replaced or evicted client shuts down once its last request has ended; at most
/// ``capacity`` idle clients are kept. Thread-safe: the table sits behind a lock, and clients
/// are shut down outside it.
final class PinnedClients: Sendable {
    /// Hosts kept with a client; beyond it the least recently leased idle one goes.
    static let capacity = 64

    private struct Entry {
        let address: String
        let client: HTTPClient
        var leases = 0
        var lastLease: UInt64 = 0
    }

    private struct Table {
        var current: [String: Entry] = [:]
        /// Replaced clients with requests still running, by identity.
        var retired: [ObjectIdentifier: Entry] = [:]
        var clock: UInt64 = 0
        var isShutDown = false
    }

    private let eventLoopGroup: any EventLoopGroup
    private let configuration: AsyncHTTPClientDataLoader.Configuration
    private let table = Locked(Table())

    init(eventLoopGroup: any EventLoopGroup, configuration: AsyncHTTPClientDataLoader.Configuration) {
        self.eventLoopGroup = eventLoopGroup
        self.configuration = configuration
    }

    /// A client connecting `host` to `address`, leased until ``release(host:client:)``; `nil`
    /// once shut down.
    func lease(host: String, address: String) -> HTTPClient? {
        var toShutDown: [HTTPClient] = []
        defer { toShutDown.forEach { _ = $0.shutdown() } }
        return table.withLock { table -> HTTPClient? in
            guard !table.isShutDown else { return nil }
            table.clock += 1
            if var entry = table.current[host], entry.address == address {
                entry.leases += 1
                entry.lastLease = table.clock
                table.current[host] = entry
                return entry.client
            }
            if let replaced = table.current.removeValue(forKey: host) {
                if replaced.leases == 0 {
                    toShutDown.append(replaced.client)
                } else {
                    table.retired[ObjectIdentifier(replaced.client)] = replaced
                }
            }
            if table.current.count >= Self.capacity,
                let idle = table.current.filter({ $0.value.leases == 0 }).min(by: {
                    $0.value.lastLease < $1.value.lastLease
                })
            {
                table.current.removeValue(forKey: idle.key)
                toShutDown.append(idle.value.client)
            }
            let client = HTTPClient(
                eventLoopGroup: eventLoopGroup,
                configuration: configuration.clientConfiguration(dnsOverride: [host: address]))
            table.current[host] = Entry(address: address, client: client, leases: 1, lastLease: table.clock)
            return client
        }
    }

    /// Ends a lease; a replaced client shuts down with its last one.
    func release(host: String, client: HTTPClient) {
        let retiredClient: HTTPClient? = table.withLock { table in
            if var entry = table.current[host], entry.client === client {
                entry.leases -= 1
                table.current[host] = entry
                return nil
            }
            let id = ObjectIdentifier(client)
            guard var entry = table.retired[id] else { return nil }
            entry.leases -= 1
            if entry.leases > 0 {
                table.retired[id] = entry
                return nil
            }
            table.retired.removeValue(forKey: id)
            return entry.client
        }
        _ = retiredClient?.shutdown()
    }

    /// Shuts every client down (their running requests fail as cancelled); later leases get `nil`.
    func shutDownAll() {
        let clients = table.withLock { table -> [HTTPClient] in
            table.isShutDown = true
            let all = table.current.values.map(\.client) + table.retired.values.map(\.client)
            table.current = [:]
            table.retired = [:]
            return all
        }
        for client in clients { _ = client.shutdown() }
    }
}
