import ArgumentParser
import Comet
import Foundation

/// `comet info FILE…`: decodes each file and prints what it is.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Decode image files and print their format, size, frames, colour profile and decoder warnings."
    )

    @Argument(help: "Image files to decode.")
    var files: [String]

    @Option(
        help:
            "Decode at reduced size so that the longer side is at least this many pixels (JPEG DCT scaling, WebP's scaler)."
    )
    var maxPixelSize: Int?

    mutating func run() throws {
        var failures = 0
        for file in files {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                var options = ImageDecodingOptions(decodesAnimation: maxPixelSize == nil)
                if let maxPixelSize { options.downsampling = .maxPixelSize(maxPixelSize) }
                let decoded = try ImageDecoders.decode(data, options: options)
                var line = "\(file): \(decoded.type) \(decoded.sourceWidth)×\(decoded.sourceHeight)"
                if let animation = decoded.animation {
                    let loops = animation.loopCount == 0 ? "looping" : "playing \(animation.loopCount)×"
                    line +=
                        ", \(animation.frames.count) frames, \(String(format: "%.2f", animation.duration)) s, \(loops)"
                } else {
                    line += ", 1 frame"
                }
                if decoded.image.width != decoded.sourceWidth || decoded.image.height != decoded.sourceHeight {
                    line += " → \(decoded.image.width)×\(decoded.image.height)"
                }
                if decoded.orientation != .up { line += ", orientation \(decoded.orientation)" }
                if let color = Self.describe(decoded.colorHandling) { line += ", \(color)" }
                if let warning = decoded.colorWarning, decoded.colorHandling.token != "unusable" {
                    line += ", colour warning: \(warning)"
                }
                if !decoded.warnings.isEmpty { line += ", warnings: \(decoded.warnings.joined(separator: "; "))" }
                print(line)
            } catch {
                failures += 1
                print("\(file): error: \(error)")
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// What decoding did with the file's colour description, or `nil` for an untagged file.
    static func describe(_ handling: ColorHandling) -> String? {
        switch handling {
        case .untagged: nil
        case .sRGB(let name): "colour profile \(name) (sRGB)"
        case .converted(let name): "colour profile \(name), converted to sRGB"
        case .kept(let name): "colour profile \(name), kept"
        case .unusable(let reason): "colour profile unusable (\(reason)), numbers as stored"
        }
    }
}
