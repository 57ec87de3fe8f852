import CometServer
import Testing

@Suite("Address classes")
struct AddressClassTests {
    @Test(
        arguments: [
            ([127, 0, 0, 1], AddressClass.loopback), ([10, 1, 2, 3], .private), ([172, 16, 0, 1], .private),
            ([172, 31, 255, 255], .private), ([192, 168, 1, 1], .private), ([100, 64, 0, 1], .private),
            ([169, 254, 169, 254], .linkLocal), ([224, 0, 0, 1], .multicast), ([0, 0, 0, 0], .reserved),
            ([255, 255, 255, 255], .reserved), ([8, 8, 8, 8], .global), ([172, 32, 0, 1], .global),
        ] as [([UInt8], AddressClass)])
    func ipv4(_ bytes: [UInt8], _ expected: AddressClass) {
        #expect(AddressClass.of(ipv4: bytes) == expected)
    }

    @Test func ipv6() {
        func v6(_ prefix: [UInt8], _ suffix: [UInt8] = []) -> [UInt8] {
            prefix + [UInt8](repeating: 0, count: 16 - prefix.count - suffix.count) + suffix
        }
        #expect(AddressClass.of(ipv6: v6([], [1])) == .loopback)
        #expect(AddressClass.of(ipv6: v6([], [])) == .reserved)
        #expect(AddressClass.of(ipv6: v6([0xfe, 0x80])) == .linkLocal)
        #expect(AddressClass.of(ipv6: v6([0xfd, 0x12])) == .private)
        #expect(AddressClass.of(ipv6: v6([0xff, 0x02])) == .multicast)
        #expect(AddressClass.of(ipv6: v6([0x20, 0x01, 0x0d, 0xb8], [1])) == .global)
        // ::ffff:127.0.0.1 is loopback, whatever it is wrapped in.
        #expect(AddressClass.of(ipv6: v6([], [0xff, 0xff, 127, 0, 0, 1])) == .loopback)
    }

    @Test func resolverSeesLocalhostAsLoopback() async throws {
        let addresses = try await HostResolver().addresses(of: "localhost")
        #expect(!addresses.isEmpty)
        #expect(
            addresses.allSatisfy {
                ($0.count == 4 ? AddressClass.of(ipv4: $0) : AddressClass.of(ipv6: $0)) == .loopback
            })
    }
}

@Suite("Address presentation")
struct AddressPresentationTests {
    @Test func ipv4IsDotted() {
        #expect(HostResolver.presentation(of: [192, 0, 2, 33]) == "192.0.2.33")
    }

    @Test func ipv6IsCompressedWithoutBrackets() {
        var address = [UInt8](repeating: 0, count: 16)
        address[0] = 0x20; address[1] = 0x01; address[2] = 0x0d; address[3] = 0xb8; address[15] = 1
        #expect(HostResolver.presentation(of: address) == "2001:db8::1")
    }
}
