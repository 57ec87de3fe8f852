import Testing
@testable import Comet

/// Every transition of ``FetchLifecycle`` (a fetch's disk-cache read, transfers, resuming and
/// retries), without a pipeline.
@Suite("A fetch's lifecycle")
struct FetchLifecycleTests {
    /// A fetch whose transfer is running and receiving (`resuming` asked for kept bytes).
    private func receiving(sendsChunks: Bool = true, resuming: Bool = false) -> FetchLifecycle {
        var lifecycle = FetchLifecycle(sendsChunks: sendsChunks)
        _ = lifecycle.start(readsDiskCache: false)
        lifecycle.transferStarted(resuming: resuming)
        _ = lifecycle.responseArrived(.wholeBody)
        return lifecycle
    }

    @Test func aFetchAllowedTheDiskCacheReadsItFirst() {
        var lifecycle = FetchLifecycle(sendsChunks: false)
        #expect(lifecycle.start(readsDiskCache: true) == .readDiskCache)
        #expect(lifecycle.phase == .readingDiskCache)
    }

    @Test func aFetchWithoutTheDiskCacheWaitsForATransfer() {
        var lifecycle = FetchLifecycle(sendsChunks: false)
        #expect(lifecycle.start(readsDiskCache: false) == .load)
        #expect(lifecycle.phase == .waitingForTransfer)
    }

    @Test func aSecondStartIsIgnored() {
        var lifecycle = FetchLifecycle(sendsChunks: false)
        _ = lifecycle.start(readsDiskCache: true)
        #expect(lifecycle.start(readsDiskCache: false) == .ignore)
        #expect(lifecycle.phase == .readingDiskCache)
    }

    @Test func aDiskCacheHitFinishesTheFetch() {
        var lifecycle = FetchLifecycle(sendsChunks: false)
        _ = lifecycle.start(readsDiskCache: true)
        #expect(lifecycle.diskCacheRead(found: true) == .deliverCachedData)
        #expect(lifecycle.phase == .finished)
    }

    @Test func aDiskCacheMissLoads() {
        var lifecycle = FetchLifecycle(sendsChunks: false)
        _ = lifecycle.start(readsDiskCache: true)
        #expect(lifecycle.diskCacheRead(found: false) == .load)
        #expect(lifecycle.phase == .waitingForTransfer)
    }

    @Test func aDiskCacheAnswerAfterTheEndIsIgnored() {
        var lifecycle = FetchLifecycle(sendsChunks: false)
        _ = lifecycle.start(readsDiskCache: true)
        lifecycle.end()
        #expect(lifecycle.diskCacheRead(found: true) == .ignore)
    }

    @Test func aWholeBodyIsAcceptedAsItsOwn() {
        var lifecycle = FetchLifecycle(sendsChunks: true)
        _ = lifecycle.start(readsDiskCache: false)
        lifecycle.transferStarted(resuming: false)
        #expect(lifecycle.phase == .transferring(.awaitingResponse(resuming: false)))
        #expect(lifecycle.responseArrived(.wholeBody) == .accept(resumed: false))
        #expect(lifecycle.chunkArrived() == .append(sendChunk: true))
    }

    @Test func aStartedTransferAwaitsItsResponseUntilItArrives() {
        var lifecycle = FetchLifecycle(sendsChunks: true)
        _ = lifecycle.start(readsDiskCache: false)
        #expect(!lifecycle.isAwaitingResponse)
        lifecycle.transferStarted(resuming: false)
        #expect(lifecycle.isAwaitingResponse)
        _ = lifecycle.responseArrived(.wholeBody)
        #expect(!lifecycle.isAwaitingResponse)
    }

    @Test func aMatchingContinuationResumesTheKeptBytes() {
        var lifecycle = FetchLifecycle(sendsChunks: true)
        _ = lifecycle.start(readsDiskCache: false)
        lifecycle.transferStarted(resuming: true)
        #expect(lifecycle.responseArrived(.matchingContinuation) == .accept(resumed: true))
        #expect(lifecycle.phase == .transferring(.receiving(resumed: true)))
    }

    @Test func aFullBodyToAResumingRequestDropsTheKeptBytes() {
        var lifecycle = FetchLifecycle(sendsChunks: true)
        _ = lifecycle.start(readsDiskCache: false)
        lifecycle.transferStarted(resuming: true)
        #expect(lifecycle.responseArrived(.wholeBody) == .accept(resumed: false))
    }

    @Test func aContinuationNobodyAskedForIsAWholeBody() {
        var lifecycle = FetchLifecycle(sendsChunks: true)
        _ = lifecycle.start(readsDiskCache: false)
        lifecycle.transferStarted(resuming: false)
        #expect(lifecycle.responseArrived(.mismatchedContinuation) == .accept(resumed: false))
    }

    @Test func aMismatchedContinuationIsCancelledDiscardedAndRedoneWholeWithoutCountingAnAttempt() {
        var lifecycle = FetchLifecycle(sendsChunks: true)
        _ = lifecycle.start(readsDiskCache: false)
        lifecycle.transferStarted(resuming: true)
        #expect(lifecycle.responseArrived(.mismatchedContinuation) == .cancelTransfer)
        #expect(lifecycle.chunkArrived() == .ignore)
        #expect(lifecycle.transferEnded(failed: true, hasBytes: false, retryDelay: .seconds(1)) == .restartWhole)
        #expect(lifecycle.phase == .waitingForTransfer)
        #expect(lifecycle.attempt == 1)
    }

    @Test func aSecondResponseIsIgnored() {
        var lifecycle = receiving()
        #expect(lifecycle.responseArrived(.matchingContinuation) == .ignore)
    }

    @Test func aBodyWithoutAResponseIsReceived() {
        var lifecycle = FetchLifecycle(sendsChunks: false)
        _ = lifecycle.start(readsDiskCache: false)
        lifecycle.transferStarted(resuming: false)
        #expect(lifecycle.chunkArrived() == .append(sendChunk: false))
        #expect(lifecycle.phase == .transferring(.receiving(resumed: false)))
    }

    @Test func chunksGoToSubscribersOnlyWithProgressiveDecoding() {
        var quiet = receiving(sendsChunks: false)
        #expect(quiet.chunkArrived() == .append(sendChunk: false))
    }

    @Test func aSuccessfulTransferWithBytesIsDelivered() {
        var lifecycle = receiving()
        #expect(lifecycle.transferEnded(failed: false, hasBytes: true, retryDelay: nil) == .deliver)
        #expect(lifecycle.phase == .finished)
    }

    @Test func aSuccessfulTransferWithoutBytesFails() {
        var lifecycle = receiving()
        #expect(lifecycle.transferEnded(failed: false, hasBytes: false, retryDelay: nil) == .failEmpty)
    }

    @Test func aFailureWithoutARetryFails() {
        var lifecycle = receiving()
        #expect(lifecycle.transferEnded(failed: true, hasBytes: true, retryDelay: nil) == .fail)
        #expect(lifecycle.phase == .finished)
    }

    @Test func aFailureTheRetryPolicyAllowsWaitsThenLoadsTheNextAttempt() {
        var lifecycle = receiving()
        #expect(
            lifecycle.transferEnded(failed: true, hasBytes: false, retryDelay: .milliseconds(300))
                == .retry(after: .milliseconds(300)))
        #expect(lifecycle.phase == .waitingToRetry && lifecycle.attempt == 2)
        let ended = lifecycle.retryDelayEnded()
        #expect(ended)
        #expect(lifecycle.phase == .waitingForTransfer)
    }

    @Test func aRetryAfterBytesWereSentStopsSendingChunks() {
        var lifecycle = receiving(sendsChunks: true)
        _ = lifecycle.transferEnded(failed: true, hasBytes: true, retryDelay: .zero)
        #expect(!lifecycle.sendsChunks)
        _ = lifecycle.retryDelayEnded()
        lifecycle.transferStarted(resuming: false)
        _ = lifecycle.responseArrived(.wholeBody)
        #expect(lifecycle.chunkArrived() == .append(sendChunk: false))
    }

    @Test func aRetryBeforeAnyByteKeepsSendingChunks() {
        var lifecycle = receiving(sendsChunks: true)
        _ = lifecycle.transferEnded(failed: true, hasBytes: false, retryDelay: .zero)
        #expect(lifecycle.sendsChunks)
    }

    @Test func attemptsAreCountedAcrossRetries() {
        var lifecycle = receiving()
        for expected in 2...4 {
            _ = lifecycle.transferEnded(failed: true, hasBytes: false, retryDelay: .zero)
            #expect(lifecycle.attempt == expected)
            _ = lifecycle.retryDelayEnded()
            lifecycle.transferStarted(resuming: false)
        }
    }

    @Test func aRetryDelayEndingAfterTheFetchEndedLoadsNothing() {
        var lifecycle = receiving()
        _ = lifecycle.transferEnded(failed: true, hasBytes: false, retryDelay: .seconds(1))
        lifecycle.end()
        let ended = lifecycle.retryDelayEnded()
        #expect(!ended)
    }

    @Test func eventsAfterTheEndChangeNothing() {
        var lifecycle = receiving()
        lifecycle.end()
        #expect(lifecycle.chunkArrived() == .ignore)
        #expect(lifecycle.responseArrived(.wholeBody) == .ignore)
        #expect(lifecycle.transferEnded(failed: false, hasBytes: true, retryDelay: nil) == .ignore)
        lifecycle.transferStarted(resuming: false)
        #expect(lifecycle.phase == .finished)
    }

    @Test func aTransferCannotStartTwice() {
        var lifecycle = receiving()
        lifecycle.transferStarted(resuming: true)
        #expect(lifecycle.phase == .transferring(.receiving(resumed: false)))
    }
}
