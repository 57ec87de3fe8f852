import NIOCore

/// The first handler of a connection's pipeline, before the HTTP decoder: it sees the raw
/// bytes, so it knows when a request head starts and ends (the blank line after the header
/// fields), and closes the connection when the head takes longer than the header-read timeout.
///
/// The service answers `GET` and `HEAD` only, which carry no body: any byte after a complete
/// head starts the next head. (A request body that contains no blank line and takes longer than
/// the timeout is closed with it.)
///
/// Per request it costs a scan of the head's bytes and two atomic stores (the ``HeadClock``
/// the guard reads at the limit). The timer is not cancelled when a head ends: one timer per
/// connection, armed when a head starts and none is pending, checks when it fires whether the
/// head being read is late, and re-arms for that head's deadline if it is not.
///
/// Confined to the connection's event loop, as every channel handler.
final class ConnectionGuardHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connections: ConnectionGuard
    private let headerReadTimeout: TimeAmount
    private let clock = HeadClock()
    private var isAdmitted = false
    /// When the head being read started, on the event loop's clock; `nil` between heads.
    private var headStarted: NIODeadline?
    /// How many bytes of the blank line ending a head (`\r\n\r\n`) the last read ended with.
    private var matched = 0
    /// The header-read timer, while one is pending.
    private var timer: Scheduled<Void>?
    private var id: ObjectIdentifier { ObjectIdentifier(self) }

    init(guard connections: ConnectionGuard) {
        self.connections = connections
        headerReadTimeout = connections.limits.headerReadTimeout.timeAmount
    }

    func channelActive(context: ChannelHandlerContext) {
        guard connections.admit(id, clock: clock, channel: context.channel) else {
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
        timer?.cancel()
        timer = nil
        headStarted = nil
        clock.stopsWaiting()
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
        if isAdmitted { follow(unwrapInboundIn(data), context: context) }
        context.fireChannelRead(data)
    }

    /// Follows a read's bytes in local state (written back once): a head starts with the first
    /// byte after the previous head's blank line and ends with its own.
    private func follow(_ buffer: ByteBuffer, context: ChannelHandlerContext) {
        var matched = self.matched
        let wasWaiting = headStarted != nil
        var isWaiting = wasWaiting
        var started = false
        buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                if !isWaiting {
                    isWaiting = true
                    started = true
                    matched = 0
                }
                switch (matched, byte) {
                case (0, 0x0D), (2, 0x0D), (1, 0x0A), (3, 0x0A): matched += 1
                case (_, 0x0D): matched = 1
                default: matched = 0
                }
                if matched == 4 {
                    isWaiting = false
                    matched = 0
                }
            }
        }
        self.matched = matched
        if isWaiting {
            if started { startWaiting(context) }
        } else if wasWaiting || started {
            headStarted = nil
            clock.stopsWaiting()
        }
    }

    private func startWaiting(_ context: ChannelHandlerContext) {
        let now = context.eventLoop.now
        headStarted = now
        clock.startsWaiting(at: .now())
        if timer == nil { arm(at: now + headerReadTimeout, context.channel) }
    }

    private func arm(at deadline: NIODeadline, _ channel: any Channel) {
        // The event loop keeps the task until it runs or is cancelled: it holds the channel and
        // the handler weakly, so a closed connection is never kept alive by its timer.
        timer = channel.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline) {
            [weak self, weak channel] in
            guard let self, let channel else { return }
            self.timerFired(channel)
        }
    }

    /// Closes the connection when the head being read is past its deadline; re-arms for that
    /// deadline when it is not; lets the timer go between heads (the next head arms it).
    private func timerFired(_ channel: any Channel) {
        timer = nil
        guard let headStarted, isAdmitted else { return }
        let deadline = headStarted + headerReadTimeout
        guard channel.eventLoop.now >= deadline else {
            arm(at: deadline, channel)
            return
        }
        self.headStarted = nil
        clock.stopsWaiting()
        connections.timedOut(id)
        channel.close(promise: nil)
    }
}
