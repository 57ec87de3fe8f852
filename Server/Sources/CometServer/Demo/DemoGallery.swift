import Comet
import Foundation

/// The sources `comet-server --demo` serves itself at `/gallery/{name}`: painted landscapes
/// (JPEG, one 4000×2667, one portrait, one WebP) and a PNG badge with transparency, made with
/// Comet's encoders at start-up.
///
/// Thread-safe (immutable).
public struct DemoGallery: Sendable {
    /// One source image.
    public struct Asset: Sendable {
        /// The file name, its path under `/gallery/`.
        public var name: String
        /// The encoded bytes.
        public var bytes: [UInt8]
        /// The media type.
        public var contentType: String
    }

    /// The images, in page order.
    public let assets: [Asset]

    /// Paints and encodes the gallery (about a second on two cores, in parallel).
    public static func make() async -> DemoGallery {
        let plans: [(name: String, width: Int, height: Int, format: OutputFormat)] = [
            ("valley.jpg", 4000, 2667, .jpeg), ("dawn.jpg", 1600, 1067, .jpeg), ("meadow.jpg", 1280, 1920, .jpeg),
            ("sunset.webp", 1600, 1000, .webp), ("night.jpg", 1440, 960, .jpeg), ("dunes.jpg", 1920, 1280, .jpeg),
            ("badge.png", 512, 512, .png),
        ]
        let assets = await withTaskGroup(of: (Int, Asset).self) { group in
            for (index, plan) in plans.enumerated() {
                group.addTask {
                    let image =
                        plan.format == .png
                        ? DemoPainter.badge(size: plan.width)
                        : DemoPainter.landscape(width: plan.width, height: plan.height, hue: index)
                    let bytes = (try? plan.format.encode(image, quality: 88)) ?? []
                    return (index, Asset(name: plan.name, bytes: bytes, contentType: plan.format.contentType))
                }
            }
            var assets: [(Int, Asset)] = []
            for await asset in group { assets.append(asset) }
            return assets.sorted { $0.0 < $1.0 }.map(\.1)
        }
        return DemoGallery(assets: assets)
    }

    /// The asset named `name`.
    public func asset(named name: String) -> Asset? { assets.first { $0.name == name } }

    /// The demo page: every image through the service in several sizes and formats, each `<img>`
    /// a signed service URL (`unsigned` in place of the signature when `signer` is `nil`) whose
    /// source is `origin` + `/gallery/{name}`.
    public func page(origin: String, signer: URLSigner?) -> String {
        let variants: [(options: String, label: String)] = [
            ("rs:fill:200:200", "200² fill, format from Accept"),
            ("rs:fill:200:200/f:webp", "200² WebP"),
            ("rs:fill:200:200/f:avif", "200² AVIF"),
            ("rs:fit:320:200/q:70/f:jpeg", "fit 320×200 JPEG q70"),
            ("rs:fit:120:0/f:png", "120 wide PNG"),
        ]
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>comet-server demo</title>
            <style>
            body { font: 14px system-ui, sans-serif; margin: 24px; background: #f4f4f6; color: #222; }
            h1 { font-size: 20px; } code { background: #e8e8ee; padding: 1px 4px; border-radius: 3px; }
            .row { display: flex; gap: 16px; align-items: flex-end; margin: 18px 0; flex-wrap: wrap; }
            figure { margin: 0; text-align: center; } figcaption { font-size: 11px; color: #555; margin-top: 4px; }
            img { display: block; background: repeating-conic-gradient(#ddd 0% 25%, #fff 0% 50%) 50% / 16px 16px; }
            </style></head><body>
            <h1>comet-server demo</h1>
            <p>Every image below is a \(signer == nil ? "n unsigned" : " signed") service URL
            <code>/{signature}/{options}/{base64url(source)}</code>; the sources are served by this
            server at <code>/gallery/</code>.</p>

            """
        for asset in assets {
            html += "<h2>\(asset.name)</h2>\n<div class=\"row\">\n"
            let source = URL(string: "\(origin)/gallery/\(asset.name)")!
            for variant in variants {
                let path = ThumbnailPath.make(options: variant.options, source: source, signer: signer)
                html +=
                    "<figure><img src=\"\(path)\" alt=\"\(asset.name) \(variant.label)\"><figcaption>\(variant.label)<br><code>\(variant.options)</code></figcaption></figure>\n"
            }
            html += "</div>\n"
        }
        return html + "</body></html>\n"
    }
}
