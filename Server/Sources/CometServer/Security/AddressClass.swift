/// What kind of network an IP address belongs to, as the source policy sees it.
///
/// Thread-safe (a value).
public enum AddressClass: String, Sendable, Hashable {
    /// A routable public address.
    case global
    /// 127.0.0.0/8, ::1.
    case loopback
    /// 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), fc00::/7.
    case `private`
    /// 169.254/16, fe80::/10.
    case linkLocal = "link-local"
    /// 224/4, ff00::/8.
    case multicast
    /// 0/8, 255.255.255.255, 240/4, ::, and other addresses that are not a host on the internet.
    case reserved

    /// Classifies an IPv4 address given as four bytes.
    public static func of(ipv4 b: [UInt8]) -> AddressClass {
        precondition(b.count == 4)
        switch (b[0], b[1]) {
        case (127, _): return .loopback
        case (10, _), (172, 16...31), (192, 168): return .private
        case (100, 64...127): return .private
        case (169, 254): return .linkLocal
        case (224...239, _): return .multicast
        case (0, _), (240...255, _): return .reserved
        default: return .global
        }
    }

    /// Classifies an IPv6 address given as sixteen bytes; IPv4-mapped (::ffff:a.b.c.d) and
    /// IPv4-compatible forms are classified as their IPv4 address.
    public static func of(ipv6 b: [UInt8]) -> AddressClass {
        precondition(b.count == 16)
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xff && b[11] == 0xff { return of(ipv4: Array(b[12..<16])) }
        if b[0..<15].allSatisfy({ $0 == 0 }) { return b[15] == 1 ? .loopback : .reserved }
        if b[0..<12].allSatisfy({ $0 == 0 }) { return of(ipv4: Array(b[12..<16])) }
        if b[0] == 0xff { return .multicast }
        if b[0] == 0xfe && b[1] & 0xc0 == 0x80 { return .linkLocal }
        if b[0] & 0xfe == 0xfc { return .private }
        // 64:ff9b::/96 (NAT64) carries an IPv4 address.
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b && b[4..<12].allSatisfy({ $0 == 0 }) {
            return of(ipv4: Array(b[12..<16]))
        }
        return .global
    }
}
