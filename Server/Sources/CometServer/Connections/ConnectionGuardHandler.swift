import NIOCore

/// The first handler of a connection's pipeline, before the HTTP decoder: it sees the raw
/// bytes, so it knows when a request head starts and ends (the blank line after the header
/// fields), and closes the connection when the head takes longer than the header-read timeout.
///
/// The service answers `GET` and `HEAD` only, which carry no body: any byte after a complete
/// head starts the next head. (A request body that contains no blank line and takes longer than
/// the timeout is closed with it.)
///
/// Confined to the connection's event loop, as every channel handler.
final class ConnectionGuardHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connections: ConnectionGuard
    private var isAdmitted = false
    private var isWaitingForHead = false
    /// How many bytes of the blank line ending a head (`\r\n\r\n`) the last read ended with.
    private var matched = 0
    private var timeout: Scheduled<Void>?
    private var id: ObjectIdentifier { ObjectIdentifier(self) }

    init(guard connections: ConnectionGuard) {
        self.connections = connections
    }

    func channelActive(context: ChannelHandlerContext) {
        guard connections.admit(id) else {
            // Closed once the activation has run its course: closing a channel from inside the
            // event that activates it leaves an embedded channel's pipeline in place.
            let channel = context.channel
            context.eventLoop.execute { channel.close(promise: nil) }
            return
        }
        isAdmitted = true
        // A connection that sends nothing is waiting for its first head from the start.
        startWaiting(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timeout?.cancel()
        timeout = nil
        if isAdmitted {
            isAdmitted = false
            connections.closed(id, channel: context.channel)
        }
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Hummingbird allows half-closure: a client that goes away closes our input first.
        if let event = event as? ChannelEvent, case .inputClosed = event {
            connections.inputClosed(context.channel)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                if !isWaitingForHead { startWaiting(context) }
                advance(byte)
                if matched == 4 { headEnded() }
            }
        }
        context.fireChannelRead(data)
    }

    /// Follows the bytes of `\r\n\r\n`.
    private func advance(_ byte: UInt8) {
        switch (matched, byte) {
        case (0, 0x0D), (2, 0x0D): matched += 1
        case (1, 0x0A), (3, 0x0A): matched += 1
        case (_, 0x0D): matched = 1
        default: matched = 0
        }
    }

    private func startWaiting(_ context: ChannelHandlerContext) {
        guard isAdmitted else { return }
        isWaitingForHead = true
        matched = 0
        connections.startsWaiting(id, channel: context.channel, since: .now())
        let loop = context.eventLoop.assumeIsolatedUnsafeUnchecked()
        // The event loop keeps the task until it runs or is cancelled: it holds the channel
        // weakly, so a closed connection is never kept alive by its timer.
        timeout = loop.scheduleTask(in: connections.limits.headerReadTimeout.timeAmount) {
            [connections, id, weak channel = context.channel] in
            guard let channel else { return }
            connections.timedOut(id)
            channel.close(promise: nil)
        }
    }

    private func headEnded() {
        isWaitingForHead = false
        matched = 0
        timeout?.cancel()
        timeout = nil
        connections.stopsWaiting(id)
    }
}
