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
