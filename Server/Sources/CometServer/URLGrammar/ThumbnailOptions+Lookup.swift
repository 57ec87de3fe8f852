extension ThumbnailOptions {
    /// The option of ``table`` that `bytes` (a URL's, as they are) name by its short or long name
    /// or an alias, or `nil`: looked up by a hash of the name rather than by comparing it with
    /// every entry's names (the table holds 47 options; a URL names several).
    static func option(named bytes: UnsafeBufferPointer<UInt8>) -> ThumbnailOption? {
        let hash = nameHash(bytes)
        return nameSlots.withUnsafeBufferPointer { slots -> ThumbnailOption? in
            var position = Int(truncatingIfNeeded: hash) & (slots.count - 1)
            while let index = slots[position].index {
                if slots[position].hash == hash, table[index].isNamed(bytes) { return table[index] }
                position = (position + 1) & (slots.count - 1)
            }
            return nil
        }
    }

    /// One place of ``nameSlots``: a name's hash and its option's index in ``table``; `nil` for
    /// a free place.
    private struct NameSlot {
        var hash: UInt64 = 0
        var index: Int?
    }

    /// Every name of every option, placed by ``nameHash(_:)`` in an open-addressed table (the
    /// next free place after a taken one) at most a quarter full: a lookup reads plain values,
    /// where a dictionary of option lists retained a list and an option for every name a URL
    /// gives. Two names of one hash are both found: each place's name is compared.
    private static let nameSlots: ContiguousArray<NameSlot> = {
        let names = table.enumerated().flatMap { index, option in
            ([option.name, option.longName] + option.aliases).map { (nameHash($0.utf8), index) }
        }
        var capacity = 1
        while capacity < names.count * 4 { capacity <<= 1 }
        var slots = ContiguousArray(repeating: NameSlot(), count: capacity)
        for (hash, index) in names {
            var position = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while slots[position].index != nil { position = (position + 1) & (capacity - 1) }
            slots[position] = NameSlot(hash: hash, index: index)
        }
        return slots
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
