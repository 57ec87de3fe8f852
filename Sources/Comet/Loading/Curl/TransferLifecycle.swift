import Foundation

/// The decisions of one ``DataLoader`` transfer as a pure state machine: what a response head,
/// body bytes, the end of an attempt, a credential, a timeout or a cancellation make of it, and
/// what the transfer must do next. No handles, bytes or callbacks: ``CurlTransfer`` keeps those,
/// reports events and performs the returned actions.
///
/// ```
/// attempting ─head 2xx─▶ receiving ─end─▶ ended (delivered)
///     │ head 3xx + Location / 401 with a provider   ▲
///     ▼                                             │ refused, failed, cancelled, timed out
/// discarding ─end─▶ (redirect: attempting again) ───┤
///                   (challenge: awaitingCredential ─credential─▶ attempting again)
/// ```
///
/// Every event after ``Phase/ended`` returns the action that does nothing, so the completion is
/// decided exactly once. A value; confined to the loader's poll thread.
struct TransferLifecycle: Sendable {
    enum Phase: Equatable, Sendable {
        /// An attempt is running; no final response head yet.
        case attempting
        /// The head was a success: the body is the load's.
        case receiving
        /// The head was a redirect or an authentication challenge: its body is dropped, and
        /// what follows is decided when the attempt ends.
        case discarding(Detour)
        /// The credential provider is being asked; no attempt is running.
        case awaitingCredential
        /// Completed (delivered, failed or cancelled).
        case ended
    }

    /// Why an attempt's body is dropped.
    enum Detour: Equatable, Sendable {
        case redirect(location: String, status: Int)
        case challenge(status: Int)
    }

    /// What a response head means for the transfer.
    enum HeadAction: Equatable {
        /// Keep receiving: the body belongs to the load.
        case accept
        /// Keep receiving, dropping the body (a redirect or a challenge).
        case discard
        /// Stop the attempt: the load failed with this error.
        case fail(DataLoaderError)
        /// An interim head (1xx) or a head after the end: nothing to do.
        case ignore
    }

    /// What body bytes are to become.
    enum BodyAction: Equatable {
        case append
        case drop
        /// Stop the attempt (the load already failed, or this chunk passed the size limit).
        case abort(DataLoaderError?)
    }

    /// What the end of an attempt leads to.
    enum EndAction: Equatable {
        /// Hand over the body and complete successfully.
        case deliver
        /// Follow the redirect to `location` (relative to the current URL).
        case redirect(location: String, status: Int)
        /// Ask the credential provider about a `status` challenge.
        case askForCredential(status: Int)
        /// Complete with this error.
        case fail(any Error)
        /// Hand over the bytes received so far (the pipeline keeps them to resume), then
        /// complete with this error: the connection failed mid-body.
        case deliverThenFail(any Error)
        /// Already ended: nothing to do.
        case ignore

        static func == (lhs: EndAction, rhs: EndAction) -> Bool {
            switch (lhs, rhs) {
            case (.deliver, .deliver), (.ignore, .ignore): true
            case (.redirect(let a, let s), .redirect(let b, let t)): a == b && s == t
            case (.askForCredential(let a), .askForCredential(let b)): a == b
            case (.fail(let a), .fail(let b)), (.deliverThenFail(let a), .deliverThenFail(let b)): "\(a)" == "\(b)"
            default: false
            }
        }
    }

    /// The most redirects a load follows (as browsers and URLSession do, about 16–20).
    static let maximumRedirects = 16

    private(set) var phase = Phase.attempting
    /// Body bytes of the current attempt (kept or dropped).
    private(set) var received = 0
    private(set) var redirects = 0
    /// Whether a credential has been tried: a second challenge is refused, not asked again.
    private(set) var hasTriedCredential = false
    /// The failure that stopped the current attempt, reported when the attempt ends.
    private(set) var failure: DataLoaderError?
    /// Whether the attempt let one challenge pass to libcurl, which answers it itself with the
    /// credential (Digest, NTLM, Negotiate take a round trip): its body is dropped.
    private(set) var isNegotiating = false

    let maximumResponseDataSize: Int?
    let answersChallenges: Bool

    init(maximumResponseDataSize: Int?, answersChallenges: Bool) {
        self.maximumResponseDataSize = maximumResponseDataSize
        self.answersChallenges = answersChallenges
    }

    /// A complete response head: its status, its `Location`, its declared length and the
    /// `Retry-After` of a 429/503, already parsed.
    /// `negotiates`: the attempt carries a credential whose scheme needs a round trip, so one
    /// challenge is libcurl's to answer.
    mutating func headReceived(
        status: Int, location: String?, contentLength: Int64?, retryAfter: TimeInterval?, negotiates: Bool = false
    ) -> HeadAction {
        guard phase == .attempting else { return .ignore }
        if (100...199).contains(status) { return .ignore }
        received = 0
        if (status == 401 || status == 407) && negotiates && !isNegotiating {
            isNegotiating = true
            return .ignore
        }
        if [301, 302, 303, 307, 308].contains(status), let location, !location.isEmpty {
            phase = .discarding(.redirect(location: location, status: status))
            return .discard
        }
        if (status == 401 || status == 407) && answersChallenges && !hasTriedCredential {
            phase = .discarding(.challenge(status: status))
            return .discard
        }
        guard (200...299).contains(status) else {
            let error: DataLoaderError =
                if let retryAfter, status == 429 || status == 503 {
                    .retryAfter(statusCode: status, seconds: retryAfter)
                } else {
                    .statusCode(status)
                }
            failure = error
            return .fail(error)
        }
        if let limit = maximumResponseDataSize, let contentLength, contentLength > Int64(limit) {
            failure = .responseTooLarge(limit: limit)
            return .fail(.responseTooLarge(limit: limit))
        }
        phase = .receiving
        return .accept
    }

    /// `count` body bytes arrived.
    mutating func bodyReceived(_ count: Int) -> BodyAction {
        if failure != nil { return .abort(nil) }
        switch phase {
        case .receiving:
            received += count
            if let limit = maximumResponseDataSize, received > limit {
                failure = .responseTooLarge(limit: limit)
                return .abort(.responseTooLarge(limit: limit))
            }
            return .append
        case .discarding:
            // A redirect's or a challenge's body is bounded like a body: it is not kept, but an
            // endless one must not keep the connection busy.
            received += count
            if let limit = maximumResponseDataSize, received > limit {
                failure = .responseTooLarge(limit: limit)
                return .abort(.responseTooLarge(limit: limit))
            }
            return .drop
        case .attempting where isNegotiating:
            return .drop
        case .attempting:
            // Bytes before a final head: a server that skipped the head (HTTP/0.9) is not accepted.
            failure = .statusCode(0)
            return .abort(.statusCode(0))
        case .awaitingCredential, .ended:
            return .abort(nil)
        }
    }

    /// The attempt ended; `error` is the transport's failure, if any.
    mutating func attemptEnded(error: (any Error)?) -> EndAction {
        switch phase {
        case .ended, .awaitingCredential:
            return .ignore
        case _ where failure != nil:
            phase = .ended
            return .fail(failure!)
        case .receiving where error != nil:
            phase = .ended
            return .deliverThenFail(error!)
        case _ where error != nil:
            phase = .ended
            return .fail(error!)
        case .receiving:
            phase = .ended
            return .deliver
        case .discarding(.redirect(let location, let status)):
            guard redirects < Self.maximumRedirects else {
                phase = .ended
                return .fail(URLError(.httpTooManyRedirects))
            }
            redirects += 1
            isNegotiating = false
            phase = .attempting
            return .redirect(location: location, status: status)
        case .discarding(.challenge(let status)):
            phase = .awaitingCredential
            return .askForCredential(status: status)
        case .attempting:
            // Ended without a final head.
            phase = .ended
            return .fail(URLError(.badServerResponse))
        }
    }

    /// What the credential provider's answer leads to.
    enum CredentialAction: Equatable {
        /// Start a new attempt with the credential.
        case retry
        /// Refused (no credential): fail with the challenge's status.
        case fail(DataLoaderError)
        /// Already ended (cancelled while the provider was asked): nothing to do.
        case ignore
    }

    /// The credential provider answered a `status` challenge, with a credential or without.
    mutating func credentialAnswered(hasCredential: Bool, status: Int) -> CredentialAction {
        guard phase == .awaitingCredential else { return .ignore }
        guard hasCredential else {
            phase = .ended
            return .fail(.statusCode(status))
        }
        hasTriedCredential = true
        isNegotiating = false
        phase = .attempting
        return .retry
    }

    /// The redirect's target was refused (or could not be built): the load fails with `error`.
    mutating func redirectRefused(_ error: any Error) -> EndAction {
        guard phase == .attempting else { return .ignore }
        phase = .ended
        return .fail(error)
    }

    /// Cancelled, timed out, or stopped by the loader's shutdown: completes with `error` unless
    /// the transfer already ended.
    mutating func stop(_ error: any Error) -> EndAction {
        guard phase != .ended else { return .ignore }
        phase = .ended
        return .fail(error)
    }

    /// Whether the transfer is still to complete.
    var isActive: Bool { phase != .ended }
}
