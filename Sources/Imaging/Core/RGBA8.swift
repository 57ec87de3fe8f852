/// One pixel: four 8-bit channels in the order the bitmap stores them.
public struct RGBA8: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    /// Creates a pixel; alpha defaults to opaque.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Fully transparent black.
    public static let clear = RGBA8(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = RGBA8(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = RGBA8(red: 255, green: 255, blue: 255)

    /// The same colour with its colour channels multiplied by alpha (rounded).
    public var premultiplied: RGBA8 {
        guard alpha != 255 else { return self }
        let a = UInt32(alpha)
        func scale(_ c: UInt8) -> UInt8 { UInt8((UInt32(c) * a + 127) / 255) }
        return RGBA8(red: scale(red), green: scale(green), blue: scale(blue), alpha: alpha)
    }

    /// The same colour with premultiplication undone (rounded; colour is lost where alpha is 0).
    public var unpremultiplied: RGBA8 {
        guard alpha != 255 else { return self }
        guard alpha != 0 else { return .clear }
        let a = UInt32(alpha)
        func scale(_ c: UInt8) -> UInt8 { UInt8(min(255, (UInt32(c) * 255 + a / 2) / a)) }
        return RGBA8(red: scale(red), green: scale(green), blue: scale(blue), alpha: alpha)
    }

    public var description: String { "RGBA(\(red), \(green), \(blue), \(alpha))" }
}
