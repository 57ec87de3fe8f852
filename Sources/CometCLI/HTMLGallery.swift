import Foundation

/// Writes the demo's `index.html`: a static page of the thumbnails (relative links, so the
/// folder can be opened from disk or served as is), each captioned with the original's name,
/// size, format and byte count, plus the contact sheet and the run's numbers.
struct HTMLGallery {
    /// One thumbnail on the page.
    struct Item {
        /// The thumbnail's path relative to the page (e.g. `thumbnails/dawn-03.jpg`).
        var thumbnailPath: String
        var name: String
        var width: Int
        var height: Int
        var format: String
        var bytes: Int
    }

    /// The thumbnails, in gallery order.
    let items: [Item]
    /// The contact sheet's path relative to the page.
    let contactSheetPath: String
    /// Lines describing the run (shown under the title).
    let summaryLines: [String]

    /// The page's HTML.
    func render() -> String {
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>Comet demo gallery</title>
            <style>
            body { background: #16181e; color: #d8dae0; font: 14px/1.4 system-ui, sans-serif; margin: 24px; }
            h1 { font-weight: 600; margin: 0 0 8px; }
            .summary { color: #9aa0ac; margin: 0 0 20px; }
            .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 16px; }
            figure { margin: 0; background: #20232b; border-radius: 8px; overflow: hidden; }
            figure img { display: block; width: 100%; aspect-ratio: 1; object-fit: cover; }
            figcaption { padding: 8px 10px; font-size: 12px; color: #aab0bc; }
            figcaption b { color: #e8eaf0; font-weight: 600; }
            .sheet { margin-top: 28px; } .sheet img { max-width: 100%; }
            </style>
            </head>
            <body>
            <h1>Comet demo gallery</h1>

            """
        html += "<p class=\"summary\">" + summaryLines.map(Self.escape).joined(separator: "<br>\n") + "</p>\n"
        html += "<div class=\"grid\">\n"
        for item in items {
            let path = Self.escape(item.thumbnailPath)
            html += """
                <figure><a href="\(path)"><img src="\(path)" alt="\(Self.escape(item.name))" width="256" height="256" loading="lazy"></a>\
                <figcaption><b>\(Self.escape(item.name))</b><br>\(item.width)×\(item.height) \(Self.escape(item.format)), \
                \(Self.escape(Format.bytes(item.bytes)))</figcaption></figure>

                """
        }
        html += "</div>\n"
        html +=
            "<div class=\"sheet\"><h2>Contact sheet</h2><img src=\"\(Self.escape(contactSheetPath))\" alt=\"contact sheet\"></div>\n"
        html += "</body>\n</html>\n"
        return html
    }

    /// `text` with the HTML special characters escaped.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
