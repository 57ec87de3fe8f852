import Foundation
import HanekeCompat
import Testing

/// File names: the escaped key, or its MD5 when too long (haneke.md's examples).
@Suite(.timeLimit(.minutes(10)))
struct DiskCacheFilenameTests {
    let cache = DiskCache(path: TestBase.diskCachePath())

    private func filename(_ key: String) -> String {
        (cache.path(forKey: key) as NSString).lastPathComponent
    }

    @Test func aURLKeyHasItsColonAndSlashesEscaped() {
        #expect(filename("http://haneke.io") == "http%3A%2F%2Fhaneke.io")
    }

    @Test func percentIsEscapedBeforeTheOtherCharacters() {
        #expect(filename("100%/a:b") == "100%25%2Fa%3Ab")
        #expect(filename("%3A") == "%253A")
    }

    @Test func aNULCharacterIsEscaped() {
        #expect(filename("a\0b") == "a%00b")
    }

    @Test func otherCharactersAreKeptAsTheyAre() {
        #expect(filename("héllo wörld?q=1&x") == "héllo wörld?q=1&x")
    }

    @Test func theFileIsInsideTheCacheDirectory() {
        #expect(cache.path(forKey: "k") == (cache.path as NSString).appendingPathComponent("k"))
    }

    @Test func aKeyOf254EscapedBytesIsStillEscaped() {
        let key = String(repeating: "a", count: 254)
        #expect(filename(key) == key)
    }

    @Test func aKeyOf255EscapedBytesBecomesItsMD5() {
        let key = String(repeating: "a", count: 255)
        let name = filename(key)
        #expect(name.count == 32)
        #expect(name.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    }

    @Test func escapingCountsTowardsTheLimit() {
        // 85 colons escape to 255 bytes.
        let name = filename(String(repeating: ":", count: 85))
        #expect(name.count == 32)
    }

    @Test func theMD5NameKeepsTheURLsPathExtension() {
        let key = "http://haneke.io/" + String(repeating: "x", count: 300) + ".png?size=large"
        let name = filename(key)
        #expect(name.hasSuffix(".png"))
        #expect(name.count == 36)
    }

    @Test func theMD5NameIsTheHashOfTheKey() {
        // MD5 of 255 "a"s, as computed by `printf 'a%.0s' {1..255} | md5sum`.
        #expect(filename(String(repeating: "a", count: 255)) == "46bc249a5a8fc5d622cf12c42c463ae0")
    }
}
