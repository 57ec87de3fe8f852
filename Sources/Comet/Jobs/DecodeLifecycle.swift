import Foundation

/// The decisions of a ``DecodeJob`` as a pure state machine: where the decode is (receiving
/// chunks, rendering a preview, decoding the final image, finished), which chunks wait for the
/// next preview round, and who holds the incremental decoder. No images, queues or caches: the
/// job tells the machine what happened and performs the returned action.
///
/// ```
/// receiving ─chunk─▶ decodingPreview ─decoder back─▶ receiving
///     │                     │   ▲ (chunks that waited: another round)
///     │                     └───┘
///     └──final data──▶ decodingFinal ─decoded─▶ finished
///     (decodingPreview waits for its round to end first)
/// ```
///
/// The machine lends its decoder: an action that starts a preview round or the final decode
/// carries it, and the machine has none until the round gives it back (``previewDecoded(returning:failed:)``).
/// So no two work items ever hold the decoder at once, by construction. Backpressure: chunks that
/// arrive while a round runs wait, and the next round renders one preview of all of them, so
/// previews are skipped, never queued. A decoder that gave up is not replaced (the final image
/// then comes from a one-shot decode), and one fed other bytes than the final data (chunks of an
/// attempt that was retried) is dropped. Events the current phase does not expect change nothing
/// and return the action that does nothing.
///
/// A value; not thread-safe on its own (the job keeps it in the pipeline's graph). Generic over
/// the decoder so that its tests need no image decoder.
struct DecodeLifecycle<Decoder> {
    enum Phase {
        /// Waiting for chunks or the final data; the decoder, if any, is here.
        case receiving(Previews)
        /// A preview round holds the decoder.
        case decodingPreview
        /// The final decode runs (with the decoder, when it is still good).
        case decodingFinal
        /// The final decode ended.
        case finished
    }

    /// Whether previews are rendered, and with what.
    enum Previews {
        /// No chunk has arrived: no decoder yet.
        case notStarted
        /// The decoder, between rounds.
        case ready(Decoder)
        /// The decoder gave up: no more previews, and the final image is decoded in one shot.
        case abandoned
    }

    enum Action {
        /// Nothing to do now.
        case none
        /// Feed `chunks` to `decoder` and render a preview, off the graph; then call
        /// ``DecodeLifecycle/previewDecoded(returning:failed:)``.
        case decodePreview(Decoder, chunks: [Data])
        /// Decode `data`, finishing `decoder` with `chunks` when there is one, else in one shot;
        /// then call ``DecodeLifecycle/finalDecoded()``.
        case decodeFinal(FetchedData, decoder: Decoder?, chunks: [Data])
    }

    private(set) var phase = Phase.receiving(.notStarted)
    /// Chunks that arrived while a preview round held the decoder.
    private var pendingChunks: [Data] = []
    /// Bytes given to the decoder, compared with the final data's: chunks of a retried attempt
    /// are not that data.
    private var chunkByteCount = 0
    /// The whole data, once it arrived.
    private(set) var finalData: FetchedData?

    init() {}

    /// A chunk of the data arrived; `makeDecoder` makes the decoder for the first one.
    mutating func chunkArrived(_ chunk: Data, makeDecoder: () -> Decoder) -> Action {
        guard finalData == nil else { return .none }
        switch phase {
        case .receiving(.notStarted):
            chunkByteCount += chunk.count
            return lend(makeDecoder(), chunks: [chunk])
        case .receiving(.ready(let decoder)):
            chunkByteCount += chunk.count
            return lend(decoder, chunks: [chunk])
        case .decodingPreview:
            chunkByteCount += chunk.count
            pendingChunks.append(chunk)
            return .none
        case .receiving(.abandoned), .decodingFinal, .finished:
            return .none
        }
    }

    /// A preview round ended and gives the decoder back; `failed` when the decoder gave up.
    mutating func previewDecoded(returning decoder: Decoder, failed: Bool) -> Action {
        guard case .decodingPreview = phase else { return .none }
        let previews: Previews
        if failed {
            previews = .abandoned
            pendingChunks = []
        } else {
            previews = .ready(decoder)
        }
        if let finalData { return decodeFinal(finalData, previews: previews) }
        if case .ready(let decoder) = previews, !pendingChunks.isEmpty {
            let chunks = pendingChunks
            pendingChunks = []
            return lend(decoder, chunks: chunks)
        }
        phase = .receiving(previews)
        return .none
    }

    /// The whole data arrived. The final decode starts now, or when the preview round running
    /// gives the decoder back.
    mutating func finalDataArrived(_ data: FetchedData) -> Action {
        guard finalData == nil else { return .none }
        switch phase {
        case .receiving(let previews):
            finalData = data
            return decodeFinal(data, previews: previews)
        case .decodingPreview:
            finalData = data
            return .none
        case .decodingFinal, .finished:
            return .none
        }
    }

    /// The final decode ended: the data it decoded, for the result; `nil` when none was running.
    mutating func finalDecoded() -> FetchedData? {
        guard case .decodingFinal = phase else { return nil }
        phase = .finished
        return finalData
    }

    private mutating func lend(_ decoder: Decoder, chunks: [Data]) -> Action {
        phase = .decodingPreview
        return .decodePreview(decoder, chunks: chunks)
    }

    private mutating func decodeFinal(_ data: FetchedData, previews: Previews) -> Action {
        phase = .decodingFinal
        let chunks = pendingChunks
        pendingChunks = []
        guard case .ready(let decoder) = previews, chunkByteCount == data.data.count else {
            return .decodeFinal(data, decoder: nil, chunks: [])
        }
        return .decodeFinal(data, decoder: decoder, chunks: chunks)
    }
}
