import Locking
import Dispatch
import Foundation
@testable import Comet
import CometTestSupport

/// Counts the threads that reached it and holds them until ``open()``.
final class DecoderGate: Sendable {
    private let state = Locked((entered: 0, isOpen: false))
    private let semaphore = DispatchSemaphore(value: 0)

    var entered: Int { state.withLock { $0.entered } }

    func pass() {
        let mustWait = state.withLock { state -> Bool in
            state.entered += 1
            return !state.isOpen
        }
        if mustWait { semaphore.wait() }
    }

    func open() {
        let waiting = state.withLock { state -> Int in
            state.isOpen = true
            return state.entered
        }
        for _ in 0..<waiting { semaphore.signal() }
    }
}

/// A processor that waits at a gate (to hold decoded images in the pipeline), then returns its
/// input.
final class GatedProcessor: ImageProcessing, Sendable {
    let identifier = "test.gated"
    private let gate = DecoderGate()
    var entered: Int { gate.entered }
    func open() { gate.open() }
    func process(_ image: Image) throws -> Image {
        gate.pass()
        return image
    }
}

/// A one-pixel test format whose decoder waits at a gate: files start with "GATE".
enum GatedFormat {
    static let type = AssetType("gated")
    static var file: Data { Data("GATE-a-tiny-test-format".utf8) }
    static let recognizes: @Sendable (Data) -> Bool = { $0.starts(with: Array("GATE".utf8)) }

    struct Decoder: ImageDecoding {
        let gate: DecoderGate
        func decode(_ data: Data, options: ImageDecodingOptions) throws(ImageDecodingError) -> DecodedImage {
            gate.pass()
            return DecodedImage(
                image: Image(width: 1, height: 1, color: .white), type: GatedFormat.type, sourceWidth: 1,
                sourceHeight: 1)
        }
    }
}
