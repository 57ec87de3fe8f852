import Comet
import Foundation

/// Writes the demo's files into the output folder: `thumbnails/NAME.jpg` (256×256 JPEG),
/// `contact-sheet.png` and `index.html`.
struct DemoArtifacts {
    /// The output folder.
    let directory: URL

    /// What was written.
    struct Written {
        var thumbnailPaths: [String]
        var contactSheet: DemoSummary.ImageFile
        var htmlPath: String
    }

    /// The thumbnail file name for an asset: its name with the extension replaced by `.jpg`.
    static func thumbnailName(for assetName: String) -> String {
        let base = (assetName as NSString).deletingPathExtension
        return base + "." + ImageFormat.jpeg.preferredFileExtension
    }

    /// Writes every file. `thumbnails[i]` is the thumbnail of `assets[i]` (missing ones, after a
    /// failure, are left out of the sheet and the page).
    func write(assets: [GalleryAsset], thumbnails: [Image?], summaryLines: [String]) throws -> Written {
        let thumbnailDirectory = directory.appendingPathComponent("thumbnails", isDirectory: true)
        try? FileManager.default.removeItem(at: thumbnailDirectory)
        try FileManager.default.createDirectory(at: thumbnailDirectory, withIntermediateDirectories: true)

        var items: [HTMLGallery.Item] = []
        var paths: [String] = []
        var sheetImages: [Image] = []
        for (asset, thumbnail) in zip(assets, thumbnails) {
            guard let thumbnail else { continue }
            let name = Self.thumbnailName(for: asset.name)
            let file = thumbnailDirectory.appendingPathComponent(name)
            try thumbnail.jpegData(compressionQuality: 0.85).write(to: file, options: .atomic)
            paths.append(file.path)
            sheetImages.append(thumbnail)
            items.append(
                HTMLGallery.Item(
                    thumbnailPath: "thumbnails/" + name, name: asset.name, width: asset.width,
                    height: asset.height, format: asset.kind.rawValue, bytes: asset.data.count))
        }

        let sheet = try ContactSheet(images: sheetImages).render()
        let sheetFile = directory.appendingPathComponent("contact-sheet.png")
        try sheet.pngData().write(to: sheetFile, options: .atomic)

        let page = HTMLGallery(items: items, contactSheetPath: "contact-sheet.png", summaryLines: summaryLines)
        let htmlFile = directory.appendingPathComponent("index.html")
        try Data(page.render().utf8).write(to: htmlFile, options: .atomic)

        return Written(
            thumbnailPaths: paths,
            contactSheet: DemoSummary.ImageFile(path: sheetFile.path, width: sheet.width, height: sheet.height),
            htmlPath: htmlFile.path)
    }
}
