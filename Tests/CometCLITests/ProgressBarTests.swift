@testable import CometCLI
import Foundation
import XCTest

/// The progress bar's plain-line mode (what CI logs and pipes see).
final class ProgressBarTests: XCTestCase {
    private func capture(_ body: (Console) -> Void) -> String {
        let pipe = Pipe()
        body(Console(fileDescriptor: pipe.fileHandleForWriting.fileDescriptor))
        try? pipe.fileHandleForWriting.close()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    func testPlainLinesAtEachTenthThenASummary() {
        let output = capture { console in
            let bar = ProgressBar(title: "load", total: 20, console: console, quiet: false)
            for index in 0..<20 { bar.advance(detail: "item \(index)") }
            bar.finish("all good")
        }
        let lines = output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 11)
        XCTAssertEqual(lines.first, "load: 2/20 (10%)")
        XCTAssertEqual(lines.last, "load: 20/20 done, all good")
        XCTAssertFalse(output.contains("\u{1B}"), "no escape codes when not a terminal")
    }

    func testEveryItemModeAndMessagesAndQuiet() {
        let output = capture { console in
            let bar = ProgressBar(title: "fetch", total: 2, console: console, quiet: false, plainEveryItem: true)
            bar.advance(detail: "a.jpg")
            bar.message("✗ b.jpg: 404")
            bar.advance(detail: "b.jpg")
        }
        XCTAssertEqual(output, "fetch 1/2  a.jpg\n✗ b.jpg: 404\nfetch 2/2  b.jpg\n")
        let quiet = capture { console in
            let bar = ProgressBar(title: "q", total: 1, console: console, quiet: true)
            bar.advance()
            bar.message("hidden")
            bar.finish()
        }
        XCTAssertEqual(quiet, "")
    }
}
