import Foundation
import Testing

@testable import Comet

/// Every transition of ``DecodeLifecycle`` (preview rounds, the final decode, lending the
/// decoder), without a pipeline or an image decoder: the decoder is a number naming it.
@Suite("A decode's lifecycle")
struct DecodeLifecycleTests {
    private typealias Lifecycle = DecodeLifecycle<Int>

    private static let chunk = Data([1, 2, 3])
    private static let whole = FetchedData(data: Data([1, 2, 3, 4, 5, 6]), response: nil, cacheType: nil)

    /// A lifecycle whose first chunk's preview round is running with decoder 7.
    private func previewing() -> Lifecycle {
        var lifecycle = Lifecycle()
        _ = lifecycle.chunkArrived(Self.chunk) { 7 }
        return lifecycle
    }

    /// The decoder and chunks a preview action lends, or `nil` for another action.
    private func preview(_ action: Lifecycle.Action) -> (decoder: Int, chunks: [Data])? {
        guard case .decodePreview(let decoder, let chunks) = action else { return nil }
        return (decoder, chunks)
    }

    /// The decoder and chunks a final-decode action carries, or `nil` for another action.
    private func final(_ action: Lifecycle.Action) -> (decoder: Int?, chunks: [Data])? {
        guard case .decodeFinal(_, let decoder, let chunks) = action else { return nil }
        return (decoder, chunks)
    }

    private func isNone(_ action: Lifecycle.Action) -> Bool {
        if case .none = action { return true }
        return false
    }

    @Test func theFirstChunkMakesTheDecoderAndLendsItToAPreviewRound() {
        var lifecycle = Lifecycle()
        let lent = preview(lifecycle.chunkArrived(Self.chunk) { 7 })
        #expect(lent?.decoder == 7 && lent?.chunks == [Self.chunk])
        guard case .decodingPreview = lifecycle.phase else { Issue.record("\(lifecycle.phase)"); return }
    }

    @Test func chunksDuringARoundWaitAndTheNextRoundTakesThemAll() {
        var lifecycle = previewing()
        #expect(isNone(lifecycle.chunkArrived(Data([4])) { 8 }))
        #expect(isNone(lifecycle.chunkArrived(Data([5])) { 8 }))
        let next = preview(lifecycle.previewDecoded(returning: 7, failed: false))
        #expect(next?.decoder == 7 && next?.chunks == [Data([4]), Data([5])])
    }

    @Test func aRoundWithNothingWaitingKeepsTheDecoderForTheNextChunk() {
        var lifecycle = previewing()
        #expect(isNone(lifecycle.previewDecoded(returning: 7, failed: false)))
        guard case .receiving(.ready(7)) = lifecycle.phase else { Issue.record("\(lifecycle.phase)"); return }
        #expect(preview(lifecycle.chunkArrived(Data([4])) { 8 })?.decoder == 7)
    }

    @Test func aDecoderThatGaveUpIsNotReplaced() {
        var lifecycle = previewing()
        _ = lifecycle.chunkArrived(Data([4])) { 8 }
        #expect(isNone(lifecycle.previewDecoded(returning: 7, failed: true)))
        guard case .receiving(.abandoned) = lifecycle.phase else { Issue.record("\(lifecycle.phase)"); return }
        #expect(isNone(lifecycle.chunkArrived(Data([5])) { 8 }))
    }

    @Test func afterADecoderGaveUpTheFinalImageIsDecodedInOneShot() {
        var lifecycle = previewing()
        _ = lifecycle.previewDecoded(returning: 7, failed: true)
        let decode = final(lifecycle.finalDataArrived(Self.whole))
        #expect(decode != nil && decode?.decoder == nil && decode?.chunks == [])
    }

    @Test func withoutChunksTheFinalDataIsDecodedAtOnceInOneShot() {
        var lifecycle = Lifecycle()
        let decode = final(lifecycle.finalDataArrived(Self.whole))
        #expect(decode != nil && decode?.decoder == nil)
        guard case .decodingFinal = lifecycle.phase else { Issue.record("\(lifecycle.phase)"); return }
    }

    @Test func theFinalDecodeFinishesTheDecoderThatSawEveryByte() {
        var lifecycle = Lifecycle()
        _ = lifecycle.chunkArrived(Data([1, 2, 3])) { 7 }
        _ = lifecycle.previewDecoded(returning: 7, failed: false)
        _ = lifecycle.chunkArrived(Data([4, 5, 6])) { 8 }
        _ = lifecycle.previewDecoded(returning: 7, failed: false)
        #expect(final(lifecycle.finalDataArrived(Self.whole))?.decoder == 7)
    }

    @Test func finalDataDuringARoundWaitsForTheDecoderToComeBack() {
        var lifecycle = Lifecycle()
        _ = lifecycle.chunkArrived(Data([1, 2, 3])) { 7 }
        _ = lifecycle.chunkArrived(Data([4, 5, 6])) { 8 }
        #expect(isNone(lifecycle.finalDataArrived(Self.whole)))
        let decode = final(lifecycle.previewDecoded(returning: 7, failed: false))
        #expect(decode?.decoder == 7 && decode?.chunks == [Data([4, 5, 6])])
    }

    @Test func aDecoderFedOtherBytesThanTheFinalDataIsDropped() {
        var lifecycle = previewing()
        _ = lifecycle.previewDecoded(returning: 7, failed: false)
        let decode = final(lifecycle.finalDataArrived(Self.whole))  // 3 bytes seen, 6 in the data
        #expect(decode != nil && decode?.decoder == nil && decode?.chunks == [])
    }

    @Test func theFinalDecodesEndFinishesTheLifecycleWithItsData() {
        var lifecycle = Lifecycle()
        _ = lifecycle.finalDataArrived(Self.whole)
        #expect(lifecycle.finalDecoded()?.data == Self.whole.data)
        guard case .finished = lifecycle.phase else { Issue.record("\(lifecycle.phase)"); return }
    }

    @Test func aSecondFinalDataIsIgnored() {
        var lifecycle = Lifecycle()
        _ = lifecycle.finalDataArrived(Self.whole)
        #expect(isNone(lifecycle.finalDataArrived(Self.whole)))
    }

    @Test func aChunkAfterTheFinalDataIsIgnored() {
        var lifecycle = Lifecycle()
        _ = lifecycle.finalDataArrived(Self.whole)
        #expect(isNone(lifecycle.chunkArrived(Self.chunk) { 7 }))
    }

    @Test func aDecoderGivenBackWithNoRoundRunningIsRefused() {
        var lifecycle = Lifecycle()
        #expect(isNone(lifecycle.previewDecoded(returning: 7, failed: false)))
        guard case .receiving(.notStarted) = lifecycle.phase else { Issue.record("\(lifecycle.phase)"); return }
    }

    @Test func aFinalDecodesEndWithNoneRunningIsRefused() {
        var lifecycle = previewing()
        #expect(lifecycle.finalDecoded() == nil)
        guard case .decodingPreview = lifecycle.phase else { Issue.record("\(lifecycle.phase)"); return }
    }
}
