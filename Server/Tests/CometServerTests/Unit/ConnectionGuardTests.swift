@testable import CometServer
import NIOCore
import NIOEmbedded
import Locking
import Testing

/// The connection guard on embedded channels: header-read timeout, limit, eviction.
@Suite("Connection guard")
struct ConnectionGuardTests {
    let limits = ConnectionLimits(headerReadTimeout: .seconds(2), idleTimeout: .seconds(60), maximumConnections: 2)

    /// An active connection through `connections`' handler on its own embedded loop.
    func connect(_ connections: ConnectionGuard) throws -> (EmbeddedChannel, EmbeddedEventLoop) {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(handler: connections.makeHandler(), loop: loop)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        loop.run()
        return (channel, loop)
    }

    func send(_ text: String, to channel: EmbeddedChannel) throws {
        try channel.writeInbound(ByteBuffer(string: text))
        while try channel.readInbound(as: ByteBuffer.self) != nil {}
    }

    @Test func aHalfSentHeadIsClosedAtTheHeaderTimeout() throws {
        let connections = ConnectionGuard(limits: limits)
        let (channel, loop) = try connect(connections)
        try send("GET /health HTTP/1.1\r\nHost: a\r\n", to: channel)
        loop.advanceTime(by: .milliseconds(1900))
        #expect(channel.isActive)
        loop.advanceTime(by: .milliseconds(200))
        #expect(!channel.isActive)
        #expect(connections.openCount == 0)
    }

    @Test func aConnectionThatSendsNothingIsClosedAtTheHeaderTimeout() throws {
        let connections = ConnectionGuard(limits: limits)
        let (channel, loop) = try connect(connections)
        loop.advanceTime(by: .seconds(3))
        #expect(!channel.isActive)
    }

    @Test func aCompleteHeadStopsTheTimerEvenWhenSplitAcrossReads() throws {
        let connections = ConnectionGuard(limits: limits)
        let (channel, loop) = try connect(connections)
        try send("GET /health HTTP/1.1\r\nHost: a\r\n\r", to: channel)
        try send("\n", to: channel)
        loop.advanceTime(by: .seconds(10))
        #expect(channel.isActive, "between requests, only the idle timeout counts")
        _ = try? channel.finish()
    }

    @Test func theNextRequestsFirstByteStartsTheTimerAgain() throws {
        let connections = ConnectionGuard(limits: limits)
        let (channel, loop) = try connect(connections)
        try send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n", to: channel)
        loop.advanceTime(by: .seconds(5))
        try send("GET /b HTTP/1.1\r\n", to: channel)
        loop.advanceTime(by: .seconds(3))
        #expect(!channel.isActive)
    }

    @Test func aHeadStartedBeforeThePreviousHeadsTimerFiresGetsItsWholeTimeout() throws {
        let connections = ConnectionGuard(limits: limits)
        let (channel, loop) = try connect(connections)
        try send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n", to: channel)
        loop.advanceTime(by: .milliseconds(1500))
        try send("GET /b HTTP/1.1\r\n", to: channel)
        loop.advanceTime(by: .milliseconds(1900))
        #expect(channel.isActive, "1.9 s into the second head")
        loop.advanceTime(by: .milliseconds(200))
        #expect(!channel.isActive)
    }

    @Test func atTheLimitANewConnectionClosesTheOneWaitingLongestForAHead() throws {
        let connections = ConnectionGuard(limits: limits)
        let (oldest, _) = try connect(connections)
        let (newer, _) = try connect(connections)
        let (newest, _) = try connect(connections)
        #expect(!oldest.isActive)
        #expect(newer.isActive && newest.isActive)
        #expect(connections.openCount == 2)
        _ = try? newer.finish()
        _ = try? newest.finish()
    }

    @Test func atTheLimitWithNoneWaitingForAHeadTheNewConnectionIsRefused() throws {
        let connections = ConnectionGuard(limits: limits)
        let (first, _) = try connect(connections)
        let (second, _) = try connect(connections)
        try send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n", to: first)
        try send("GET /b HTTP/1.1\r\nHost: a\r\n\r\n", to: second)
        let (third, _) = try connect(connections)
        #expect(!third.isActive)
        #expect(first.isActive && second.isActive)
        #expect(connections.openCount == 2)
        _ = try? first.finish()
        _ = try? second.finish()
    }

    @Test func eachClosingIsReportedWithItsReason() throws {
        let reasons = Locked<[String]>([])
        let connections = ConnectionGuard(limits: limits) { _, closing in
            if let closing { reasons.withLock { $0.append(closing.rawValue) } }
        }
        let (waiting, _) = try connect(connections)
        let (busy, _) = try connect(connections)
        try send("GET /b HTTP/1.1\r\nHost: a\r\n\r\n", to: busy)
        let (late, lateLoop) = try connect(connections)  // closes `waiting`
        lateLoop.advanceTime(by: .seconds(3))  // `late` sent nothing
        let (another, _) = try connect(connections)
        try send("GET /c HTTP/1.1\r\nHost: a\r\n\r\n", to: another)
        let (refused, _) = try connect(connections)  // `busy` and `another` are both past their heads
        #expect(!waiting.isActive && !late.isActive && !refused.isActive)
        #expect(reasons.withLock { $0 } == ["evicted", "header_timeout", "refused"])
        _ = try? busy.finish()
        _ = try? another.finish()
    }
}
