import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
@testable import Comet

/// The default loader's per-transfer decisions, without a network: every head, body, end,
/// credential and stop event, and that a transfer completes exactly once.
@Suite("Transfer lifecycle")
struct TransferLifecycleTests {
    private func machine(limit: Int? = 1000, answersChallenges: Bool = false) -> TransferLifecycle {
        TransferLifecycle(maximumResponseDataSize: limit, answersChallenges: answersChallenges)
    }

    @Test func aSuccessfulHeadAcceptsTheBodyAndTheEndDelivers() {
        var lifecycle = machine()
        #expect(lifecycle.headReceived(status: 200, location: nil, contentLength: 10, retryAfter: nil) == .accept)
        #expect(lifecycle.bodyReceived(10) == .append)
        #expect(lifecycle.attemptEnded(error: nil) == .deliver)
        #expect(!lifecycle.isActive)
    }

    @Test func anInterimHeadIsIgnored() {
        var lifecycle = machine()
        #expect(lifecycle.headReceived(status: 100, location: nil, contentLength: nil, retryAfter: nil) == .ignore)
        #expect(lifecycle.phase == .attempting)
    }

    @Test func anErrorStatusFailsWithItAtOnce() {
        var lifecycle = machine()
        #expect(
            lifecycle.headReceived(status: 404, location: nil, contentLength: nil, retryAfter: nil)
                == .fail(.statusCode(404)))
        #expect(lifecycle.bodyReceived(5) == .abort(nil))
        #expect(lifecycle.attemptEnded(error: URLError(.unknown)) == .fail(DataLoaderError.statusCode(404)))
    }

    @Test func a503WithRetryAfterCarriesTheDelay() {
        var lifecycle = machine()
        #expect(
            lifecycle.headReceived(status: 503, location: nil, contentLength: nil, retryAfter: 7)
                == .fail(.retryAfter(statusCode: 503, seconds: 7)))
    }

    @Test func aDeclaredLengthPastTheLimitFailsBeforeTheBody() {
        var lifecycle = machine(limit: 100)
        #expect(
            lifecycle.headReceived(status: 200, location: nil, contentLength: 101, retryAfter: nil)
                == .fail(.responseTooLarge(limit: 100)))
    }

    @Test func aBodyPassingTheLimitAbortsTheAttempt() {
        var lifecycle = machine(limit: 100)
        _ = lifecycle.headReceived(status: 200, location: nil, contentLength: nil, retryAfter: nil)
        #expect(lifecycle.bodyReceived(60) == .append)
        #expect(lifecycle.bodyReceived(60) == .abort(.responseTooLarge(limit: 100)))
        #expect(lifecycle.attemptEnded(error: nil) == .fail(DataLoaderError.responseTooLarge(limit: 100)))
    }

    @Test func aRedirectDropsItsBodyAndStartsAnotherAttempt() {
        var lifecycle = machine()
        #expect(lifecycle.headReceived(status: 302, location: "/b", contentLength: 5, retryAfter: nil) == .discard)
        #expect(lifecycle.bodyReceived(5) == .drop)
        #expect(lifecycle.attemptEnded(error: nil) == .redirect(location: "/b", status: 302))
        #expect(lifecycle.phase == .attempting && lifecycle.redirects == 1)
    }

    @Test func aRedirectWithoutLocationIsAFailure() {
        var lifecycle = machine()
        #expect(
            lifecycle.headReceived(status: 302, location: nil, contentLength: nil, retryAfter: nil)
                == .fail(.statusCode(302)))
    }

    @Test func theSeventeenthRedirectFails() {
        var lifecycle = machine()
        for _ in 0..<TransferLifecycle.maximumRedirects {
            _ = lifecycle.headReceived(status: 301, location: "/again", contentLength: nil, retryAfter: nil)
            #expect(lifecycle.attemptEnded(error: nil) == .redirect(location: "/again", status: 301))
        }
        _ = lifecycle.headReceived(status: 301, location: "/again", contentLength: nil, retryAfter: nil)
        #expect(lifecycle.attemptEnded(error: nil) == .fail(URLError(.httpTooManyRedirects)))
    }

    @Test func aChallengeIsAskedOnceThenRefused() {
        var lifecycle = machine(answersChallenges: true)
        #expect(lifecycle.headReceived(status: 401, location: nil, contentLength: nil, retryAfter: nil) == .discard)
        #expect(lifecycle.attemptEnded(error: nil) == .askForCredential(status: 401))
        #expect(lifecycle.credentialAnswered(hasCredential: true, status: 401) == .retry)
        #expect(
            lifecycle.headReceived(status: 401, location: nil, contentLength: nil, retryAfter: nil)
                == .fail(.statusCode(401)))
    }

    @Test func aChallengeWithoutAProviderFailsWithItsStatus() {
        var lifecycle = machine(answersChallenges: false)
        #expect(
            lifecycle.headReceived(status: 407, location: nil, contentLength: nil, retryAfter: nil)
                == .fail(.statusCode(407)))
    }

    @Test func noCredentialFailsWithTheChallengesStatus() {
        var lifecycle = machine(answersChallenges: true)
        _ = lifecycle.headReceived(status: 401, location: nil, contentLength: nil, retryAfter: nil)
        _ = lifecycle.attemptEnded(error: nil)
        #expect(lifecycle.credentialAnswered(hasCredential: false, status: 401) == .fail(.statusCode(401)))
    }

    @Test func aNegotiatedSchemeLetsLibcurlAnswerOneChallenge() {
        var lifecycle = machine(answersChallenges: true)
        _ = lifecycle.headReceived(status: 401, location: nil, contentLength: nil, retryAfter: nil)
        _ = lifecycle.attemptEnded(error: nil)
        _ = lifecycle.credentialAnswered(hasCredential: true, status: 401)
        #expect(
            lifecycle.headReceived(status: 401, location: nil, contentLength: nil, retryAfter: nil, negotiates: true)
                == .ignore)
        #expect(lifecycle.bodyReceived(20) == .drop)
        #expect(
            lifecycle.headReceived(status: 200, location: nil, contentLength: nil, retryAfter: nil, negotiates: true)
                == .accept)
    }

    @Test func aTransportErrorMidBodyHandsOverWhatArrived() {
        var lifecycle = machine()
        _ = lifecycle.headReceived(status: 200, location: nil, contentLength: 100, retryAfter: nil)
        _ = lifecycle.bodyReceived(40)
        #expect(
            lifecycle.attemptEnded(error: URLError(.networkConnectionLost))
                == .deliverThenFail(URLError(.networkConnectionLost)))
    }

    @Test func anEndWithoutAHeadIsABadResponse() {
        var lifecycle = machine()
        #expect(lifecycle.attemptEnded(error: nil) == .fail(URLError(.badServerResponse)))
    }

    @Test func bytesBeforeAHeadAreRefused() {
        var lifecycle = machine()
        #expect(lifecycle.bodyReceived(3) == .abort(.statusCode(0)))
    }

    @Test func aStopCompletesOnceAndEverythingAfterIsIgnored() {
        var lifecycle = machine()
        _ = lifecycle.headReceived(status: 200, location: nil, contentLength: nil, retryAfter: nil)
        #expect(lifecycle.stop(URLError(.cancelled)) == .fail(URLError(.cancelled)))
        #expect(lifecycle.stop(URLError(.timedOut)) == .ignore)
        #expect(lifecycle.attemptEnded(error: nil) == .ignore)
        #expect(lifecycle.bodyReceived(1) == .abort(nil))
        #expect(lifecycle.credentialAnswered(hasCredential: true, status: 401) == .ignore)
    }

    @Test func aCancelWhileTheProviderIsAskedWins() {
        var lifecycle = machine(answersChallenges: true)
        _ = lifecycle.headReceived(status: 401, location: nil, contentLength: nil, retryAfter: nil)
        _ = lifecycle.attemptEnded(error: nil)
        #expect(lifecycle.stop(URLError(.cancelled)) == .fail(URLError(.cancelled)))
        #expect(lifecycle.credentialAnswered(hasCredential: true, status: 401) == .ignore)
    }
}

/// The response head as libcurl passes it, line by line.
@Suite("Response head")
struct ResponseHeadTests {
    private func head(_ lines: [String]) -> (ResponseHead, ended: Bool) {
        var head = ResponseHead()
        var ended = false
        for line in lines {
            var bytes = Array(line.utf8)
            ended = bytes.withUnsafeMutableBytes { head.consume(UnsafeRawBufferPointer($0)) }
        }
        return (head, ended)
    }

    @Test func theStatusLineAndFieldsAreReadAndTheBlankLineEndsTheHead() {
        let (parsed, ended) = head([
            "HTTP/1.1 302 Found\r\n", "Location:  /next \r\n", "content-LENGTH: 12\r\n",
            "X-Twice: a\r\n", "X-Twice: b\r\n", "\r\n",
        ])
        #expect(ended)
        #expect(parsed.status == 302 && parsed.httpVersion == "HTTP/1.1")
        #expect(parsed.location == "/next" && parsed.contentLength == 12)
        #expect(parsed.fields["X-Twice"] == "a, b")
    }

    @Test func anInterimHeadIsReplacedByTheFinalOne() {
        let (parsed, _) = head(["HTTP/1.1 100 Continue\r\n", "X-Old: 1\r\n", "\r\n", "HTTP/2 200\r\n", "\r\n"])
        #expect(parsed.status == 200 && parsed.httpVersion == "HTTP/2")
        #expect(parsed.fields["X-Old"] == nil)
    }

    @Test func anEncodedBodyHasNoIdentityLength() {
        let (gzip, _) = head(["HTTP/1.1 200 OK\r\n", "Content-Length: 40\r\n", "Content-Encoding: GZIP\r\n", "\r\n"])
        #expect(gzip.identityLength == nil)
        let (plain, _) = head(["HTTP/1.1 200 OK\r\n", "Content-Length: 40\r\n", "\r\n"])
        #expect(plain.identityLength == 40)
    }

    @Test func theChallengeAndItsRealmAreFound() {
        let (parsed, _) = head(["HTTP/1.1 401 Unauthorized\r\n", "WWW-Authenticate: Basic realm=\"comet\"\r\n", "\r\n"])
        #expect(parsed.challenge == "Basic realm=\"comet\"")
        #expect(AuthenticationChallenge.realm(in: parsed.challenge) == "comet")
    }

    @Test func aLineWithoutAColonOrAnEmptyNameIsIgnored() {
        let (parsed, _) = head(["HTTP/1.1 200 OK\r\n", "garbage\r\n", ": nameless\r\n", "\r\n"])
        #expect(parsed.fields.isEmpty)
    }
}
