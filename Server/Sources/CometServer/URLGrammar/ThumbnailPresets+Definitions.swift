import Foundation

extension ThumbnailPresets {
    /// Adds one `NAME=options` definition (a `--preset` value, or a line of a presets file) to
    /// `definitions`; `origin` names where it comes from in the error. Throws
    /// ``ServiceError/badOptions(_:)`` when it has no `=` or no name, or names a preset already
    /// defined. The options are checked when the presets are made.
    public static func addDefinition(
        _ definition: String, to definitions: inout [String: String], origin: String
    ) throws(ServiceError) {
        guard let equals = definition.firstIndex(of: "="), equals > definition.startIndex else {
            throw .badOptions("\(origin): a preset is NAME=options, got \"\(definition)\"")
        }
        let name = String(definition[..<equals])
        guard definitions[name] == nil else { throw .badOptions("\(origin): preset \(name) is defined twice") }
        definitions[name] = String(definition[definition.index(after: equals)...])
    }

    /// Adds the definitions of a presets file's `text` (`--presets-file`): one `NAME=options`
    /// a line, as `--preset` takes them; blank lines and lines whose first non-blank character
    /// is `#` are skipped, and blanks around a line are ignored. `path` names the file in errors,
    /// with the line's number.
    public static func addDefinitions(
        file text: String, path: String, to definitions: inout [String: String]
    ) throws(ServiceError) {
        // `\r\n` is one Character, a newline as `\n` is.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            try addDefinition(trimmed, to: &definitions, origin: "\(path):\(index + 1)")
        }
    }
}
