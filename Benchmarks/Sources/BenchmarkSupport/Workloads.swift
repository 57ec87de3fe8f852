import Comet
import Foundation

/// The suite's inputs, generated deterministically (the same bytes on every run and machine with
/// the same libjpeg/libpng) and kept in `.build-bench/workloads` so that each benchmark process
/// reads them instead of painting and encoding them again.
public enum Workloads {
    /// The folder of ``photos`` under ``directory`` (their files are `000` … `199`).
    public static let photosFolder = "photo-grain9-1024x768-q85"

    /// 200 photo-like JPEGs, 1024×768, quality 85, about 125 KB each.
    public static let photos: [Data] = load(photosFolder, count: 200) { index in
        try PhotoGenerator.image(width: 1024, height: 768, seed: UInt32(index)).jpegData(compressionQuality: 0.85)
    }

    /// 3 photo-like JPEGs, 8000×6000, quality 85.
    public static let largePhotos: [Data] = load("photo-grain9-8000x6000-q85", count: 3) { index in
        try PhotoGenerator.image(width: 8000, height: 6000, seed: UInt32(500 + index)).jpegData(
            compressionQuality: 0.85)
    }

    /// 200 photo-like PNGs, 512×512 RGBA with a varying alpha.
    public static let pngs: [Data] = load("png-grain9-512x512-rgba", count: 200) { index in
        try PhotoGenerator.image(width: 512, height: 512, seed: UInt32(1000 + index), alpha: true).pngData()
    }

    /// 20 photo-like lossy WebPs, 1024×768, quality 80 (libwebp's default).
    public static let webpPhotos: [Data] = load("photo-grain9-1024x768-webp-q80", count: 20) { index in
        try PhotoGenerator.image(width: 1024, height: 768, seed: UInt32(index)).webpData(quality: 0.8)
    }

    /// 10 photo-like AVIFs, 1024×768, quality 0.6, speed 8 (Comet's defaults).
    public static let avifPhotos: [Data] = load("photo-grain9-1024x768-avif-q60", count: 10) { index in
        try PhotoGenerator.image(width: 1024, height: 768, seed: UInt32(index)).avifData(quality: 0.6)
    }

    /// 20 photo-like JPEGs, 1024×768, quality 85, tagged Display P3 (what phones write): the
    /// numbers of ``photos``' generator with a P3 profile embedded.
    public static let p3Photos: [Data] = load("photo-grain9-1024x768-q85-p3", count: 20) { index in
        try PhotoGenerator.image(width: 1024, height: 768, seed: UInt32(index)).withColorProfile(.displayP3)
            .jpegData(compressionQuality: 0.85)
    }

    /// The same 20 JPEGs tagged with an sRGB profile: the numbers need no conversion.
    public static let sRGBTaggedPhotos: [Data] = load("photo-grain9-1024x768-q85-srgb", count: 20) { index in
        try PhotoGenerator.image(width: 1024, height: 768, seed: UInt32(index)).withColorProfile(.sRGB)
            .jpegData(compressionQuality: 0.85)
    }

    /// The same 20 JPEGs untagged.
    public static let untaggedPhotos: [Data] = load("photo-grain9-1024x768-q85-untagged", count: 20) { index in
        try PhotoGenerator.image(width: 1024, height: 768, seed: UInt32(index)).jpegData(compressionQuality: 0.85)
    }

    /// A 1×1 PNG: the cheapest real decode, for figures about the pipeline's own cost.
    public static let pixel: Data = try! Image(width: 1, height: 1, color: .white).pngData()

    /// Where generated files are kept (bump the version when the generator changes).
    public static let directory: URL = {
        if let path = ProcessInfo.processInfo.environment["COMET_BENCH_WORKLOADS"] {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build-bench/workloads-v1")
    }()

    private static func load(_ name: String, count: Int, make: @Sendable (Int) throws -> Data) -> [Data] {
        let folder = directory.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files = (0..<count).map { folder.appendingPathComponent(String(format: "%03d", $0)) }
        let results = ResultSlots(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            if let data = try? Data(contentsOf: files[index]), !data.isEmpty {
                results.set(data, at: index)
                return
            }
            do {
                let data = try make(index)
                // Written under a temporary name and renamed, so a killed run leaves no torn file.
                let temporary = files[index].appendingPathExtension("tmp")
                try data.write(to: temporary)
                guard rename(temporary.path, files[index].path) == 0 else { throw CocoaError(.fileWriteUnknown) }
                results.set(data, at: index)
            } catch {
                fatalError("Generating workload \(name) #\(index) failed: \(error)")
            }
        }
        return results.values
    }
}

/// Slots filled from `concurrentPerform`'s threads, one per index.
private final class ResultSlots: @unchecked Sendable {
    // Sendable: every access to `slots` happens under `lock`.
    private let lock = NSLock()
    private var slots: [Data]

    init(count: Int) { slots = Array(repeating: Data(), count: count) }

    func set(_ data: Data, at index: Int) { lock.withLock { slots[index] = data } }

    var values: [Data] { lock.withLock { slots } }
}
