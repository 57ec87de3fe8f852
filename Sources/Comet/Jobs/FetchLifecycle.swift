/// The decisions of a ``FetchDataJob`` as a pure state machine: where the fetch is (disk cache,
/// waiting for a transfer, transferring, waiting to retry, finished), what each event makes of
/// it, and what the job must do next. No bytes, loaders, caches or tasks: the job keeps the body
/// and the handles, tells the machine what happened, and performs the returned action.
///
/// ```
/// idle ─▶ readingDiskCache ─hit─▶ finished
///   │            │ miss
///   └────────────┴──▶ waitingForTransfer ─▶ transferring ─end─▶ finished
///                       ▲       ▲                  │
///                       │       └── mismatch ──────┤ (the attempt is redone whole, uncounted)
///                       └── waitingToRetry ◀─ retry┘ (a failed attempt, counted)
/// ```
///
/// A transfer first awaits its response. One that asked to resume kept bytes (`Range`) and gets
/// a 206 for another range discards the rest of that attempt, which is redone in full when it
/// ends. After a retry of an attempt that had sent bytes, no more chunks go to subscribers: a
/// progressive decoder fed from two attempts would mix them. Events the current phase does not
/// expect change nothing and return the action that does nothing.
///
/// A value; not thread-safe on its own (the job keeps it in the pipeline's graph).
struct FetchLifecycle: Sendable {
    enum Phase: Equatable, Sendable {
        /// Made, not started.
        case idle
        /// Reading the disk cache.
        case readingDiskCache
        /// In the rate limiter or the data-loading queue, or about to start the transfer.
        case waitingForTransfer
        /// A transfer is running.
        case transferring(Transfer)
        /// A failed attempt's retry is waiting for its delay.
        case waitingToRetry
        /// Delivered, failed or cancelled.
        case finished
    }

    /// Where a running transfer is.
    enum Transfer: Equatable, Sendable {
        /// Started; no response yet. `resuming` when it asked for the rest of kept bytes.
        case awaitingResponse(resuming: Bool)
        /// Receiving the body; `resumed` when it continues the kept bytes.
        case receiving(resumed: Bool)
        /// The server continued other bytes than asked for: what arrives is dropped.
        case discarding
    }

    /// What the response to a transfer was, as far as resuming goes.
    enum ResponseKind: Sendable {
        /// A body of its own (a 200, or anything but a 206).
        case wholeBody
        /// A 206 continuing the kept bytes exactly.
        case matchingContinuation
        /// A 206 for another range.
        case mismatchedContinuation
    }

    enum StartAction: Equatable {
        case readDiskCache, load
        /// Nothing: the fetch had already started.
        case ignore
    }
    enum CacheAction: Equatable { case deliverCachedData, load, ignore }
    enum ResponseAction: Equatable {
        /// Keep the body; `resumed`: the kept bytes come first.
        case accept(resumed: Bool)
        /// Cancel the transfer (its end redoes the attempt whole).
        case cancelTransfer
        /// Nothing: no transfer awaits a response.
        case ignore
    }
    enum ChunkAction: Equatable {
        /// Append the chunk to the body; `sendChunk`: send it to subscribers too.
        case append(sendChunk: Bool)
        /// Drop it.
        case ignore
    }
    enum EndAction: Equatable {
        /// Deliver the body as the final value.
        case deliver
        /// Fail: the transfer succeeded with no bytes.
        case failEmpty
        /// Forget the attempt and load again in full (after a mismatched continuation).
        case restartWhole
        /// Keep the received bytes for resuming, then load again after `delay`.
        case retry(after: Duration)
        /// Keep the received bytes for resuming, then fail with the transfer's error.
        case fail
        /// Nothing: no transfer was running.
        case ignore
    }

    private(set) var phase = Phase.idle
    /// The attempt running or next (1 for the first).
    private(set) var attempt = 1
    /// Whether chunks go to subscribers as they arrive.
    private(set) var sendsChunks: Bool

    /// - Parameter sendsChunks: whether chunks go to subscribers (progressive decoding).
    init(sendsChunks: Bool) {
        self.sendsChunks = sendsChunks
    }

    /// Whether a transfer runs and its response has not arrived (a chunk's response is then
    /// the transfer's).
    var isAwaitingResponse: Bool {
        if case .transferring(.awaitingResponse) = phase { return true }
        return false
    }

    /// The job starts; `readsDiskCache` when the request may be answered from the disk cache.
    mutating func start(readsDiskCache: Bool) -> StartAction {
        guard phase == .idle else { return .ignore }
        phase = readsDiskCache ? .readingDiskCache : .waitingForTransfer
        return readsDiskCache ? .readDiskCache : .load
    }

    /// The disk cache answered; `found` when it had the data.
    mutating func diskCacheRead(found: Bool) -> CacheAction {
        guard phase == .readingDiskCache else { return .ignore }
        phase = found ? .finished : .waitingForTransfer
        return found ? .deliverCachedData : .load
    }

    /// The transfer starts; `resuming` when it asks for the rest of kept bytes.
    mutating func transferStarted(resuming: Bool) {
        guard phase == .waitingForTransfer else { return }
        phase = .transferring(.awaitingResponse(resuming: resuming))
    }

    /// The transfer's response arrived.
    mutating func responseArrived(_ kind: ResponseKind) -> ResponseAction {
        guard case .transferring(.awaitingResponse(let resuming)) = phase else { return .ignore }
        switch kind {
        case .matchingContinuation where resuming:
            phase = .transferring(.receiving(resumed: true))
            return .accept(resumed: true)
        case .mismatchedContinuation where resuming:
            phase = .transferring(.discarding)
            return .cancelTransfer
        default:
            phase = .transferring(.receiving(resumed: false))
            return .accept(resumed: false)
        }
    }

    /// A chunk of the body arrived (a loader without responses sends its body alone).
    mutating func chunkArrived() -> ChunkAction {
        switch phase {
        case .transferring(.awaitingResponse):
            phase = .transferring(.receiving(resumed: false))
            return .append(sendChunk: sendsChunks)
        case .transferring(.receiving):
            return .append(sendChunk: sendsChunks)
        default:
            return .ignore
        }
    }

    /// The transfer ended: `failed` with an error or not, `hasBytes` when the body is not empty,
    /// `retryDelay` when the retry policy allows another attempt after that error.
    mutating func transferEnded(failed: Bool, hasBytes: Bool, retryDelay: Duration?) -> EndAction {
        guard case .transferring(let transfer) = phase else { return .ignore }
        if transfer == .discarding {
            phase = .waitingForTransfer
            return .restartWhole
        }
        guard failed else {
            phase = .finished
            return hasBytes ? .deliver : .failEmpty
        }
        guard let retryDelay else {
            phase = .finished
            return .fail
        }
        attempt += 1
        if hasBytes { sendsChunks = false }
        phase = .waitingToRetry
        return .retry(after: retryDelay)
    }

    /// A retry's delay ended: the next attempt waits for its transfer. `false` when no retry
    /// was waiting (nothing to do).
    mutating func retryDelayEnded() -> Bool {
        guard phase == .waitingToRetry else { return false }
        phase = .waitingForTransfer
        return true
    }

    /// The fetch ended: delivered, failed (before a transfer, or a body too large) or cancelled.
    /// Its owner calls this once it is done, whatever ended it.
    mutating func end() {
        phase = .finished
    }
}
