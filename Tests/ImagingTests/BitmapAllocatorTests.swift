import Foundation
import Testing
@testable import Imaging

/// Bitmaps of half a megabyte or more live in mappings of their own; the last few freed are reused.
@Suite("Bitmap allocator")
struct BitmapAllocatorTests {
    let allocator = BitmapAllocator(keptBlockLimit: 2)
    let oddSize = (1 << 20) + 7 * 4096 + 123

    @Test func aLargeBlockIsPageAligned() {
        let base = allocator.allocate(byteCount: oddSize)!
        defer { allocator.release(base, byteCount: oddSize) }
        #expect(Int(bitPattern: base) % 4096 == 0)
    }

    @Test func aFreedBlockIsReusedForTheNextBitmapOfTheSameSize() {
        let size = oddSize + 2 * 4096
        let first = allocator.allocate(byteCount: size)!
        first.storeBytes(of: 0xAB, as: UInt8.self)
        allocator.release(first, byteCount: size)
        let second = allocator.allocate(byteCount: size)!
        defer { allocator.release(second, byteCount: size) }
        #expect(second == first)
    }

    @Test func aFreedBlockOfAnotherSizeIsNotReused() {
        let first = allocator.allocate(byteCount: oddSize)!
        allocator.release(first, byteCount: oddSize)
        let other = allocator.allocate(byteCount: oddSize + 4096)!
        defer { allocator.release(other, byteCount: oddSize + 4096) }
        #expect(other != first)
        #expect(allocator.keptBlockCount == 1)
    }

    @Test func atMostTheLimitOfFreedBlocksIsKept() {
        let sizes = (0..<4).map { oddSize + (10 + $0) * 4096 }
        let blocks = sizes.map { allocator.allocate(byteCount: $0)! }
        for (block, size) in zip(blocks, sizes) { allocator.release(block, byteCount: size) }
        #expect(allocator.keptBlockCount == 2)
    }

    @Test func aFreedBlockOverTheKeptMaximumGoesBackToTheSystem() {
        let size = BitmapAllocator.keptBlockMaxLength + 4096
        let block = allocator.allocate(byteCount: size)!
        allocator.release(block, byteCount: size)
        #expect(allocator.keptBlockCount == 0)
    }

    @Test func freedBlocksAreKeptWithinTheByteLimit() {
        let allocator = BitmapAllocator(keptBlockLimit: 8)
        let size = BitmapAllocator.keptByteLimit / 3 + 4096
        let blocks = (0..<4).map { _ in allocator.allocate(byteCount: size)! }
        for block in blocks { allocator.release(block, byteCount: size) }
        #expect(allocator.keptBlockCount == 2)
    }

    @Test func aHalfMegabyteThumbnailDecodeIsMapped() {
        // 512×384, a 1024×768 photo decoded at 1/2 for a 256² thumbnail.
        let image = Image(width: 512, height: 384, color: RGBA8(red: 1, green: 2, blue: 3, alpha: 255))
        image.withUnsafeBytes { bytes in #expect(Int(bitPattern: bytes.baseAddress!) % 4096 == 0) }
    }

    @Test func anImageOfAMegabyteOrMoreKeepsItsPixelsInAMapping() {
        let image = Image(width: 1024, height: 768, color: RGBA8(red: 10, green: 20, blue: 30, alpha: 255))
        #expect(image.pixel(x: 1023, y: 767) == RGBA8(red: 10, green: 20, blue: 30, alpha: 255))
        image.withUnsafeBytes { bytes in #expect(Int(bitPattern: bytes.baseAddress!) % 4096 == 0) }
    }
}
