import Foundation

/// The heap block behind an ``Image``: allocated once, written once while the image is created,
/// then only read. Immutable after initialisation, which is what makes sharing it across threads
/// safe.
final class PixelStorage: @unchecked Sendable {
    /// Alignment of every pixel block: a cache line, good for SIMD loads.
    static let alignment = 64

    let base: UnsafeMutableRawPointer
    let byteCount: Int
    private let isFromC: Bool

    /// Allocates `byteCount` bytes (at least one, so `base` is always valid).
    init(byteCount: Int) {
        self.byteCount = byteCount
        self.base = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: Self.alignment)
        self.isFromC = false
    }

    /// Takes ownership of a block a C decoder allocated with `malloc`/`posix_memalign`
    /// (released with `free`), so decoded pixels are never copied.
    init(adoptingMallocBlock base: UnsafeMutableRawPointer, byteCount: Int) {
        self.base = base
        self.byteCount = byteCount
        self.isFromC = true
    }

    deinit {
        if isFromC { free(base) } else { base.deallocate() }
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: byteCount) }
}
