import CHiredis
import Glibc

/// One blocking hiredis connection, owned and used by a single worker thread of
/// ``RedisWorkerPool`` (hence not `Sendable`). Connects lazily, and drops its context after any
/// I/O error or timeout so the next command reconnects: a late answer to a timed-out command
/// must never be read as the answer to the next one.
final class RedisConnection {
    private let configuration: RedisConfiguration
    private var context: UnsafeMutablePointer<redisContext>?

    init(configuration: RedisConfiguration) {
        self.configuration = configuration
    }

    deinit {
        disconnect()
    }

    /// Whether a context is open (it may still turn out broken on the next command).
    var isConnected: Bool { context != nil }

    /// Sends one command (binary-safe arguments) and waits for its reply, within the timeouts.
    /// Blocks the calling thread.
    func execute(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        let context = try connected()
        // One contiguous buffer holds every argument, so all pointers stay valid together.
        var buffer: [UInt8] = []
        buffer.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        var offsets: [Int] = []
        var lengths: [Int] = []
        for argument in arguments {
            offsets.append(buffer.count)
            lengths.append(argument.count)
            buffer.append(contentsOf: argument)
        }
        buffer.append(0)  // never empty, so the base address exists
        let raw: UnsafeMutableRawPointer? = buffer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                var pointers: [UnsafePointer<CChar>?] = offsets.map { UnsafePointer(chars.baseAddress! + $0) }
                return lengths.withUnsafeBufferPointer { lengthPointer in
                    redisCommandArgv(context, Int32(arguments.count), &pointers, lengthPointer.baseAddress)
                }
            }
        }
        guard let raw else {
            let message = Self.errorString(context)
            disconnect()
            throw .io(message)
        }
        let reply = raw.assumingMemoryBound(to: redisReply.self)
        defer { freeReplyObject(raw) }
        return Self.convert(reply)
    }

    /// Closes the connection, if open.
    func disconnect() {
        if let context {
            redisFree(context)
            self.context = nil
        }
    }

    private func connected() throws(RedisError) -> UnsafeMutablePointer<redisContext> {
        if let context {
            if Self.peerHasClosed(context) { disconnect() } else { return context }
        }
        guard
            let context = redisConnectWithTimeout(
                configuration.host, Int32(configuration.port), Self.timeval(configuration.connectTimeout))
        else {
            throw .connectionFailed("cannot allocate a hiredis context")
        }
        if context.pointee.err != 0 {
            let message = Self.errorString(context)
            redisFree(context)
            throw .connectionFailed(message)
        }
        if redisSetTimeout(context, Self.timeval(configuration.commandTimeout)) != REDIS_OK {
            let message = Self.errorString(context)
            redisFree(context)
            throw .connectionFailed(message)
        }
        self.context = context
        return context
    }

    /// Whether an idle connection has something to read: a healthy idle Redis connection has
    /// nothing, so this is the FIN (or reset) of a server that restarted or closed it. Checked
    /// before each command (one poll(2) without waiting), so a restarted Redis costs no failed
    /// call per pooled connection.
    private static func peerHasClosed(_ context: UnsafeMutablePointer<redisContext>) -> Bool {
        var descriptor = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) != 0
    }

    private static func convert(_ reply: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING:
            guard let str = value.str else { return .bulk([]) }
            return .bulk(Array(UnsafeRawBufferPointer(start: str, count: value.len)))
        case REDIS_REPLY_STATUS:
            return .status(string(value.str, value.len))
        case REDIS_REPLY_ERROR:
            return .error(string(value.str, value.len))
        case REDIS_REPLY_INTEGER:
            return .integer(Int(value.integer))
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(value.elements)
            for index in 0..<value.elements {
                if let element = value.element[index] {
                    elements.append(convert(element))
                } else {
                    elements.append(.null)
                }
            }
            return .array(elements)
        default:
            return .null
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<CChar>?, _ length: Int) -> String {
        guard let pointer else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    private static func errorString(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { bytes in
            let length = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes.prefix(length), as: UTF8.self)
        }
    }

    private static func timeval(_ duration: Duration) -> Glibc.timeval {
        let (seconds, attoseconds) = duration.components
        let microseconds = max(0, attoseconds / 1_000_000_000_000)
        // A zero timeout would mean "none" to the kernel: keep at least 1 µs.
        if seconds <= 0 && microseconds == 0 { return Glibc.timeval(tv_sec: 0, tv_usec: 1) }
        return Glibc.timeval(tv_sec: Int(max(0, seconds)), tv_usec: Int(microseconds))
    }
}
