import Locking
import Foundation

/// Progress of a batch: a redrawn bar on a terminal, plain lines otherwise, nothing when quiet.
///
/// On a terminal the bar is one line redrawn in place (at most every 50 ms):
///
///     network  [██████████████░░░░░░░░░░]  32/50  12.4 MB  0.8 s  sunset-07.jpg
///
/// Without a terminal (a pipe, a log file, CI) it prints one line per completed item when
/// `plainEveryItem` is set, else a line at each tenth of the way, so logs stay short.
/// Messages (``message(_:)``) are printed above the bar without tearing it.
///
/// Thread-safe: items may complete on any thread.
final class ProgressBar: Sendable {
    /// How the bar is shown.
    enum Style: Sendable {
        /// A redrawn bar (the console is a terminal).
        case bar
        /// Plain lines.
        case lines
        /// Nothing.
        case quiet
    }

    private struct State {
        var completed = 0
        var bytes = 0
        var detail = ""
        var lastDraw: Double = -1
        var lastPlainStep = 0
        var isFinished = false
    }

    private let title: String
    private let total: Int
    private let console: Console
    private let style: Style
    private let plainEveryItem: Bool
    private let stopwatch = Stopwatch()
    private let state = Locked(State())

    /// Creates a bar for `total` items titled `title`, drawn on `console` (a bar when it is a
    /// terminal, else lines; nothing when `quiet`).
    init(title: String, total: Int, console: Console, quiet: Bool, plainEveryItem: Bool = false) {
        self.title = title
        self.total = max(total, 0)
        self.console = console
        self.style = quiet ? .quiet : (console.isTerminal ? .bar : .lines)
        self.plainEveryItem = plainEveryItem
    }

    /// Records one more completed item (`bytes` loaded for it, `detail` naming it).
    func advance(bytes: Int = 0, detail: String = "") {
        let output: String? = state.withLock { state in
            state.completed += 1
            state.bytes += bytes
            state.detail = detail
            return render(&state, force: state.completed == total)
        }
        if let output { console.write(output) }
    }

    /// Sets the byte count shown (for example, the pipeline's bytes loaded so far) and redraws.
    func setBytes(_ bytes: Int) {
        let output: String? = state.withLock { state in
            state.bytes = bytes
            return style == .bar ? render(&state, force: false) : nil
        }
        if let output { console.write(output) }
    }

    /// Prints `text` on its own line (above the bar on a terminal), unless quiet.
    func message(_ text: String) {
        guard style != .quiet else { return }
        let output: String = state.withLock { state in
            guard style == .bar, !state.isFinished else { return text + "\n" }
            state.lastDraw = -1
            return "\r\u{1B}[2K" + text + "\n" + (render(&state, force: true) ?? "")
        }
        console.write(output)
    }

    /// Ends the bar: on a terminal the final state stays on screen with `summary` appended.
    func finish(_ summary: String = "") {
        let output: String? = state.withLock { state in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            switch style {
            case .quiet: return nil
            case .bar: return "\r\u{1B}[2K" + barLine(state, detail: summary) + "\n"
            case .lines: return "\(title): \(state.completed)/\(total) done\(summary.isEmpty ? "" : ", " + summary)\n"
            }
        }
        if let output { console.write(output) }
    }

    private func render(_ state: inout State, force: Bool) -> String? {
        guard !state.isFinished else { return nil }
        switch style {
        case .quiet:
            return nil
        case .bar:
            let now = stopwatch.elapsed
            guard force || now - state.lastDraw >= 0.05 else { return nil }
            state.lastDraw = now
            return "\r\u{1B}[2K" + barLine(state, detail: state.detail)
        case .lines:
            if plainEveryItem {
                return "\(title) \(state.completed)/\(total)\(state.detail.isEmpty ? "" : "  " + state.detail)\n"
            }
            let step = total > 0 ? state.completed * 10 / total : 10
            guard step > state.lastPlainStep else { return nil }
            state.lastPlainStep = step
            return "\(title): \(state.completed)/\(total) (\(step * 10)%)\n"
        }
    }

    private func barLine(_ state: State, detail: String) -> String {
        let fraction = total > 0 ? Double(state.completed) / Double(total) : 1
        let counter = "\(state.completed)/\(total)"
        var info = "  \(counter)"
        if state.bytes > 0 { info += "  \(Format.bytes(state.bytes))" }
        info += "  \(Format.duration(stopwatch.elapsed))"
        let label = title.padding(toLength: max(title.count, 8), withPad: " ", startingAt: 0)
        let width = max(10, min(30, console.columns - label.count - info.count - 20))
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        var line = "\(label) [\(bar)]\(info)"
        if !detail.isEmpty {
            let room = console.columns - line.count - 3
            if room > 8 { line += "  " + (detail.count > room ? String(detail.prefix(room - 1)) + "…" : detail) }
        }
        return line
    }
}
