/// One option of a thumbnail URL's `{options}` segment, declared once: its names, the form of its
/// arguments, what it means, and how it is read and spelled. What it does to the result is the
/// step of `ThumbnailPlan.steps` that reads it.
///
/// Derived from ``ThumbnailOptions/table``: parsing, the canonical spelling (cache keys and
/// ETags), the error listing the known options, `comet-server --help` and the options table of
/// the Serving guide (`CometServer.docc/Serving.md`).
///
/// A class, so that reading the table on every request retains one reference per entry instead
/// of copying its eight fields. Thread-safe (immutable fields and `Sendable` closures).
public final class ThumbnailOption: Sendable {
    /// The short name, used in the canonical spelling (`rs`).
    public let name: String
    /// The long name, accepted as well (`resize`).
    public let longName: String
    /// More names accepted as well, imgproxy's other spellings (`extend_ar`, `ext`); none for most.
    public let aliases: [String]
    /// The arguments after the name, as the grammar writes them (`{fit|fill|force}:{w}:{h}[:{up}]`).
    public let syntax: String
    /// What the option does, in one sentence (README and `--help`).
    public let summary: String
    /// The name and its arguments as the grammar writes them (`rs:{fit|fill|force}:…`; the name
    /// alone for an option without arguments).
    public var form: String { syntax.isEmpty ? name : "\(name):\(syntax)" }
    /// A valid use of the option, in its canonical spelling (`rs:fill:256:256`).
    public let example: String

    /// The short and long names' UTF-8 bytes, compared with a URL's bytes as they are.
    private let nameBytes: [UInt8]
    private let longNameBytes: [UInt8]
    private let aliasBytes: [[UInt8]]

    private let readArguments: @Sendable (OptionArguments, Int, inout ThumbnailOptions) throws(ServiceError) -> Void
    /// Appends the option's name and the value's arguments (each after a `:`), after a `/` when
    /// the output is not empty; `false` when the options do not set it.
    let spellArguments: @Sendable (ThumbnailOptions, inout [UInt8]) -> Bool

    /// Declares an option stored in the field that `get` reads and `set` writes (closures, not a
    /// key path: applying a key path goes through the runtime on every request).
    /// - Parameters:
    ///   - parse: reads the arguments (after the name), given the largest output side allowed;
    ///     throws ``ServiceError/badOptions(_:)`` naming the problem.
    ///   - spell: appends the arguments of a value in canonical form, each after a `:` (parsing
    ///     them gives the value back).
    ///   - reset: what the option given with one empty argument (`q:`, `bg:`) does: sets the
    ///     option back to its default, as an argument left empty means its default. `nil`: the
    ///     empty argument goes to `parse`, for options whose parts may each be left empty.
    // Inlined into each entry's declaration so that its closures are compiled for its `Value`:
    // left generic, every request's canonical spelling read each of the 47 values through
    // runtime metadata, which cost as much as all the rest of the URL path.
    @inline(__always)
    init<Value: Sendable>(
        name: String, longName: String, aliases: [String] = [], syntax: String, summary: String, example: String,
        get: @escaping @Sendable (ThumbnailOptions) -> Value?,
        set: @escaping @Sendable (inout ThumbnailOptions, Value) -> Void,
        reset: (@Sendable (inout ThumbnailOptions) -> Void)?,
        parse: @escaping @Sendable (OptionArguments, _ maximumDimension: Int) throws(ServiceError) -> Value,
        spell: @escaping @Sendable (Value, inout [UInt8]) -> Void
    ) {
        self.name = name
        self.longName = longName
        self.aliases = aliases
        self.syntax = syntax
        self.summary = summary
        self.example = example
        let nameBytes = Array(name.utf8)
        self.nameBytes = nameBytes
        longNameBytes = Array(longName.utf8)
        aliasBytes = aliases.map { Array($0.utf8) }
        readArguments = {
            (arguments: OptionArguments, maximumDimension: Int, options: inout ThumbnailOptions) throws(ServiceError) in
            if let reset, arguments.isOneEmptyArgument {
                reset(&options)
            } else {
                set(&options, try parse(arguments, maximumDimension))
            }
        }
        spellArguments = { options, output in
            // Only what the options set is written: a canonical spelling visits every entry.
            guard let value = get(options) else { return false }
            if !output.isEmpty { output.append(UInt8(ascii: "/")) }
            output.append(contentsOf: nameBytes)
            spell(value, &output)
            return true
        }
    }

    /// Reads this option's `arguments` into `options`.
    func read(_ arguments: OptionArguments, maximumDimension: Int, into options: inout ThumbnailOptions)
        throws(ServiceError)
    {
        try readArguments(arguments, maximumDimension, &options)
    }

    /// Whether `bytes` (a URL's, as they are) spell this option's short or long name or an alias.
    func isNamed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ASCII.equal(bytes, nameBytes) || ASCII.equal(bytes, longNameBytes)
            || aliasBytes.contains { ASCII.equal(bytes, $0) }
    }
}
