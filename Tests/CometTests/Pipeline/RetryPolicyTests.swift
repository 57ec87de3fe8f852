import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
@testable import Comet

/// The retry policy's decisions, on errors alone: which failures are retried, and how long
/// each wait is.
@Suite("Retry policy")
struct RetryPolicyTests {
    private let unjittered = ImagePipeline.RetryPolicy(maximumAttempts: 5, initialDelay: .milliseconds(100), jitter: 0)

    @Test func waitsGrowExponentially() {
        let delays = (1...4).map { unjittered.delay(afterAttempt: $0, failedWith: DataLoaderError.statusCode(503)) }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800)])
    }

    @Test func noWaitOnceTheAttemptsAreUsedUp() {
        #expect(unjittered.delay(afterAttempt: 5, failedWith: DataLoaderError.statusCode(503)) == nil)
    }

    @Test func waitsStopGrowingAtTheMaximumDelay() {
        var policy = unjittered
        policy.maximumAttempts = 20
        policy.maximumDelay = .seconds(1)
        #expect(policy.delay(afterAttempt: 10, failedWith: DataLoaderError.statusCode(500)) == .seconds(1))
    }

    @Test func jitterSpreadsTheWaitBothWays() {
        var low = ImagePipeline.RetryPolicy(initialDelay: .seconds(1), jitter: 0.2, random: { 0 })
        #expect(low.delay(afterAttempt: 1, failedWith: DataLoaderError.statusCode(503)) == .milliseconds(800))
        low.random = { 0.999_999 }
        let high = low.delay(afterAttempt: 1, failedWith: DataLoaderError.statusCode(503))!
        #expect(high > .milliseconds(1199) && high <= .milliseconds(1200))
    }

    @Test func retryAfterReplacesTheComputedWait() {
        let error = DataLoaderError.retryAfter(statusCode: 429, seconds: 7)
        #expect(unjittered.delay(afterAttempt: 1, failedWith: error) == .seconds(7))
    }

    @Test func retryAfterBeyondTheMaximumEndsTheRetries() {
        let error = DataLoaderError.retryAfter(statusCode: 503, seconds: 120)
        #expect(unjittered.delay(afterAttempt: 1, failedWith: error) == nil)
    }

    @Test(arguments: [500, 502, 503, 504, 429])
    func serverErrorsAndTooManyRequestsAreTransient(status: Int) {
        #expect(ImagePipeline.RetryPolicy.isTransient(DataLoaderError.statusCode(status)))
    }

    @Test(arguments: [400, 401, 403, 404, 410])
    func clientErrorsAreNotRetried(status: Int) {
        #expect(!ImagePipeline.RetryPolicy.isTransient(DataLoaderError.statusCode(status)))
        #expect(unjittered.delay(afterAttempt: 1, failedWith: DataLoaderError.statusCode(status)) == nil)
    }

    @Test func timeoutsAndLostConnectionsAreTransient() {
        #expect(ImagePipeline.RetryPolicy.isTransient(URLError(.timedOut)))
        #expect(ImagePipeline.RetryPolicy.isTransient(URLError(.networkConnectionLost)))
        #expect(ImagePipeline.RetryPolicy.isTransient(DataLoaderError.incompleteBody(received: 10, expected: 100)))
    }

    @Test func cancellationAndOversizeAreNotRetried() {
        #expect(!ImagePipeline.RetryPolicy.isTransient(URLError(.cancelled)))
        #expect(!ImagePipeline.RetryPolicy.isTransient(CancellationError()))
        #expect(!ImagePipeline.RetryPolicy.isTransient(DataLoaderError.responseTooLarge(limit: 10)))
    }

    @Test func retryAfterIsReadAsSecondsOrAsAnHTTPDate() {
        #expect(ImagePipeline.RetryPolicy.parseRetryAfter("120") == 120)
        let now = Date(timeIntervalSince1970: 784_111_767)  // Sun, 06 Nov 1994 08:49:27 GMT
        #expect(ImagePipeline.RetryPolicy.parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 10)
        #expect(ImagePipeline.RetryPolicy.parseRetryAfter("soon") == nil)
        #expect(ImagePipeline.RetryPolicy.parseRetryAfter("-5") == nil)
    }

    @Test func theDisabledPolicyNeverRetries() {
        #expect(
            ImagePipeline.RetryPolicy.disabled.delay(afterAttempt: 1, failedWith: DataLoaderError.statusCode(503))
                == nil)
    }
}
