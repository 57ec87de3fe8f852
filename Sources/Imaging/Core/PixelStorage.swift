import Foundation

/// The heap block behind an ``Image``: allocated once, written once while the image is created,
/// then only read. Immutable after initialisation, which is what makes sharing it across threads
/// safe.
final class PixelStorage: @unchecked Sendable {
    /// Alignment of every pixel block: a cache line, good for SIMD loads.
    static let alignment = 64

    let base: UnsafeMutableRawPointer
    let byteCount: Int
    private let owner: Owner

    /// Who gave out `base`, and so how it is freed.
    private enum Owner {
        case swift
        case malloc
        case bitmapAllocator
    }

    /// Allocates `byteCount` bytes (at least one, so `base` is always valid). Half a megabyte or more
    /// comes from ``BitmapAllocator`` (its own mapping, page-aligned).
    init(byteCount: Int) {
        self.byteCount = byteCount
        if byteCount >= BitmapAllocator.threshold, let mapped = BitmapAllocator.shared.allocate(byteCount: byteCount) {
            self.base = mapped
            self.owner = .bitmapAllocator
        } else {
            self.base = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: Self.alignment)
            self.owner = .swift
        }
    }

    /// Takes ownership of a block a C decoder allocated with `malloc`/`posix_memalign`
    /// (released with `free`), so decoded pixels are never copied.
    init(adoptingMallocBlock base: UnsafeMutableRawPointer, byteCount: Int) {
        self.base = base
        self.byteCount = byteCount
        self.owner = .malloc
    }

    deinit {
        switch owner {
        case .swift: base.deallocate()
        case .malloc: free(base)
        case .bitmapAllocator: BitmapAllocator.shared.release(base, byteCount: byteCount)
        }
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: byteCount) }
}
