extension ThumbnailOptions {
    /// The option of ``table`` that `bytes` (a URL's, as they are) name by its short or long name
    /// or an alias, or `nil`: looked up by a hash of the name rather than by comparing it with
    /// every entry's names (the table holds 47 options; a URL names several).
    static func option(named bytes: UnsafeBufferPointer<UInt8>) -> ThumbnailOption? {
        guard let candidates = optionsByNameHash[nameHash(bytes)] else { return nil }
        return candidates.first { $0.isNamed(bytes) }
    }

    /// Every name of every option, by ``nameHash(_:)``; a list, so that two names of one hash
    /// would both be found.
    private static let optionsByNameHash: [UInt64: [ThumbnailOption]] = {
        var index: [UInt64: [ThumbnailOption]] = [:]
        for option in table {
            for name in [option.name, option.longName] + option.aliases {
                index[nameHash(name.utf8), default: []].append(option)
            }
        }
        return index
    }()

    /// FNV-1a over a name's bytes: a few instructions a byte for names of 1 to 30 bytes.
    private static func nameHash(_ bytes: some Collection<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
