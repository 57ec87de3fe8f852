import CReference
import Foundation
import Comet

/// `make bench`: Comet's decoders against plain C loops over the same bytes, in one run.
@main
enum CometBenchmarks {
    static func main() async throws {
        let arguments = CommandLine.arguments
        if arguments.count >= 3, arguments[1] == "--peak-rss-thumbnail" {
            try measurePeakRSSOfThumbnail(path: arguments[2])
            return
        }
        print("Comet benchmarks — \(machineDescription())")
        print("Generating workloads…")
        let photos = (0..<20).map { try! PhotoGenerator.image(width: 1024, height: 768, seed: UInt32($0)).jpegData(compressionQuality: 0.85) }
        let large = try PhotoGenerator.image(width: 8000, height: 6000, seed: 99).jpegData(compressionQuality: 0.85)
        let pngs = (0..<10).map { try! PhotoGenerator.image(width: 512, height: 512, seed: UInt32(100 + $0), alpha: true).pngData() }

        var results: [Comparison] = []
        var index = 0
        results.append(Comparison.run("JPEG 1024×768 q85 → RGBA", target: "≤ 1.15×", iterations: 200, comet: {
            _ = try! JPEGDecoder().decode(photos[index % photos.count]); index += 1
        }, reference: {
            photos[index % photos.count].withUnsafeBytes { _ = ref_jpeg_decode($0.baseAddress, $0.count, 1) }
        }))
        let thumbnail = ImageDecodingOptions(downsampling: .maxPixelSize(1000))
        results.append(Comparison.run("JPEG 8000×6000 → 1/8 (1000×750)", target: "≤ 1.15×", iterations: 15, comet: {
            _ = try! JPEGDecoder().decode(large, options: thumbnail)
        }, reference: {
            large.withUnsafeBytes { _ = ref_jpeg_decode($0.baseAddress, $0.count, 8) }
        }))
        results.append(Comparison.run("PNG 512×512 RGBA → RGBA", target: "report", iterations: 100, comet: {
            _ = try! PNGDecoder().decode(pngs[index % pngs.count]); index += 1
        }, reference: {
            pngs[index % pngs.count].withUnsafeBytes { _ = ref_png_decode($0.baseAddress, $0.count) }
        }))

        // Processing: the same pixels through Comet's processors and through plain C loops.
        let photo = PhotoGenerator.image(width: 1024, height: 768, seed: 7)
        let sourcePixels = photo.packedBytes
        var output = [UInt8](repeating: 0, count: 256 * 256 * 4)
        let fill = ImageProcessors.Resize(size: Size(width: 256, height: 256), contentMode: .aspectFill, crop: true)
        results.append(Comparison.run("resize 1024×768 → 256² fill+crop", target: "≤ 1.2×", iterations: 200, comet: {
            _ = try! fill.process(photo)
        }, reference: {
            sourcePixels.withUnsafeBufferPointer { source in
                ref_area_average(source.baseAddress, 1024 * 4, 128, 0, 256, 256, 3, &output)
            }
        }))
        var blurPixels = sourcePixels
        var scratch = [UInt8](repeating: 0, count: sourcePixels.count)
        let blur = ImageProcessors.GaussianBlur(radius: 8)
        results.append(Comparison.run("Gaussian blur σ8 1024×768", target: "< 15 ms", iterations: 40, comet: {
            _ = try! blur.process(photo)
        }, reference: {
            // One box pass each way with the radius of one of the three passes (σ 8 → ~7).
            ref_box_blur(&blurPixels, 1024, 768, 7, &scratch)
        }))

        print("")
        print(pad("benchmark", 36) + pad("Comet", 12) + pad("C reference", 14) + pad("ratio", 8) + "target")
        for result in results {
            print(pad(result.name, 36) + pad(formatDuration(result.comet.median), 12)
                  + pad(formatDuration(result.reference.median), 14) + pad(String(format: "%.2f×", result.ratio), 8) + result.target)
        }
        try reportPeakRSS()

        print("\nPipeline")
        for figure in try await PipelineBenchmarks.run() {
            print(pad(figure.name, 36) + pad(figure.value, 12) + pad(figure.reference, 36) + figure.target)
        }
    }

    /// Decodes the corpus's 20000×14000 JPEG as a 256-pixel thumbnail in a fresh process and
    /// reports that process's peak resident memory.
    static func reportPeakRSS() throws {
        let giant = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/corpus/sharp-photos/giant-image.jpg")
        guard FileManager.default.fileExists(atPath: giant.path) else {
            print("\npeak RSS: skipped, \(giant.path) not found")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--peak-rss-thumbnail", giant.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        print("\n" + output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func measurePeakRSSOfThumbnail(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let before = highWaterMarkKB()
        let start = Measurement.now()
        let decoded = try JPEGDecoder().decode(data, options: ImageDecodingOptions(downsampling: .maxPixelSize(256)))
        let elapsed = Double(Measurement.now() - start)
        print("20000×14000 JPEG → \(decoded.image.width)×\(decoded.image.height) thumbnail: \(formatDuration(elapsed)), "
              + "peak RSS \(highWaterMarkKB() / 1024) MB (before decoding: \(before / 1024) MB; target < 60 MB)")
    }

    /// This process's peak resident set (VmHWM). Unlike getrusage's ru_maxrss, which Linux
    /// carries over from the parent across exec, it covers this process image only.
    static func highWaterMarkKB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    static func machineDescription() -> String {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        return "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores"
    }
}
