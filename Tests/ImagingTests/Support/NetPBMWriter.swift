import Foundation
@testable import Imaging

/// Writes an image the way libwebp's `dwebp -ppm` and `dwebp -pam` do (their headers byte for
/// byte), so that the md5 sums in libwebp-test-data's `libwebp_tests.md5` can be checked.
enum NetPBMWriter {
    /// `P6\n<w> <h>\n255\n` then RGB.
    static func ppm(_ image: Image) -> Data {
        var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
        let bytes = image.packedBytes
        data.reserveCapacity(data.count + bytes.count / 4 * 3)
        for i in stride(from: 0, to: bytes.count, by: 4) { data.append(contentsOf: bytes[i..<(i + 3)]) }
        return data
    }

    /// `P7` with WIDTH, HEIGHT, DEPTH 4, MAXVAL 255, TUPLTYPE RGB_ALPHA, then RGBA.
    static func pam(_ image: Image) -> Data {
        var data = Data(
            "P7\nWIDTH \(image.width)\nHEIGHT \(image.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        data.append(contentsOf: image.packedBytes)
        return data
    }
}

/// The MD5 of `data` in lowercase hex, from coreutils' `md5sum` (the test checks sums another
/// tool made; using a third implementation keeps the check independent of Comet).
func md5Hex(_ data: Data) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/md5sum")
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    // Write from another thread so a full output pipe can never block the writer.
    let writer = Thread {
        input.fileHandleForWriting.write(data); try? input.fileHandleForWriting.close()
    }
    writer.start()
    let result = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: result.prefix(32), as: UTF8.self)
}
