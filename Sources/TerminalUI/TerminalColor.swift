// TerminalColor: a color given as a name or #rrggbb, and its truecolor / 256-color escape forms.

/// How many colors the output can show.
public enum ColorSupport: Sendable, Equatable {
    /// No colors (not a terminal, TERM=dumb, or NO_COLOR set); bold/dim/reverse may still be used.
    case none
    case ansi256
    case truecolor

    /// `NO_COLOR` (any value) → none; `COLORTERM` truecolor/24bit → truecolor; else 256 colors.
    public static func detect(environment: [String: String]) -> ColorSupport {
        if environment["NO_COLOR"].map({ !$0.isEmpty }) == true { return .none }
        let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .truecolor }
        return .ansi256
    }
}

/// An RGB color, for tints given by applications as a name ("blue", "systemOrange") or "#rrggbb"/"#rgb".
public struct TerminalColor: Equatable, Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#rrggbb`, `#rgb` or a name from `named` (case-insensitive); nil for anything else.
    public init?(_ specification: String) {
        let text = specification.trimmingCharacters(in: " ").lowercased()
        if text.hasPrefix("#") {
            var digits = Array(text.dropFirst())
            if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
            guard digits.count == 6, let value = UInt32(String(digits), radix: 16) else { return nil }
            self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
        } else if let color = Self.named[text] {
            self = color
        } else {
            return nil
        }
    }

    /// Color names understood by `init?(_:)`: basic CSS names and the Apple system tints.
    public static let named: [String: TerminalColor] = {
        let table: [(String, UInt32)] = [
            ("black", 0x000000), ("white", 0xFFFFFF), ("gray", 0x808080), ("grey", 0x808080),
            ("red", 0xFF0000), ("green", 0x008000), ("blue", 0x0000FF), ("yellow", 0xFFFF00),
            ("orange", 0xFFA500), ("purple", 0x800080), ("pink", 0xFFC0CB), ("brown", 0xA52A2A),
            ("cyan", 0x00FFFF), ("magenta", 0xFF00FF), ("teal", 0x008080), ("indigo", 0x4B0082),
            ("systemblue", 0x007AFF), ("systemred", 0xFF3B30), ("systemgreen", 0x34C759),
            ("systemorange", 0xFF9500), ("systemyellow", 0xFFCC00), ("systempink", 0xFF2D55),
            ("systempurple", 0xAF52DE), ("systemteal", 0x5AC8FA), ("systemindigo", 0x5856D6),
            ("systemgray", 0x8E8E93),
        ]
        var result: [String: TerminalColor] = [:]
        for (name, value) in table {
            result[name] = TerminalColor(
                red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
        }
        return result
    }()

    /// The nearest entry of the xterm 256-color palette (6x6x6 cube or gray ramp).
    public var ansi256Index: Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ v: UInt8) -> Int {
            (0..<6).min { abs(levels[$0] - Int(v)) < abs(levels[$1] - Int(v)) }!
        }
        let (r, g, b) = (nearestLevel(red), nearestLevel(green), nearestLevel(blue))
        let cube = 16 + 36 * r + 6 * g + b
        let cubeDistance = distance(to: (levels[r], levels[g], levels[b]))
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let grayStep = max(0, min(23, (average - 8 + 5) / 10))
        let grayLevel = 8 + 10 * grayStep
        let grayDistance = distance(to: (grayLevel, grayLevel, grayLevel))
        return grayDistance < cubeDistance ? 232 + grayStep : cube
    }

    private func distance(to other: (Int, Int, Int)) -> Int {
        let dr = Int(red) - other.0
        let dg = Int(green) - other.1
        let db = Int(blue) - other.2
        return dr * dr + dg * dg + db * db
    }

    /// The SGR sequence setting this as the foreground color; empty for `.none`.
    public func foreground(_ support: ColorSupport) -> String {
        switch support {
        case .none: return ""
        case .ansi256: return "\u{1B}[38;5;\(ansi256Index)m"
        case .truecolor: return "\u{1B}[38;2;\(red);\(green);\(blue)m"
        }
    }

    /// The SGR sequence setting this as the background color; empty for `.none`.
    public func background(_ support: ColorSupport) -> String {
        switch support {
        case .none: return ""
        case .ansi256: return "\u{1B}[48;5;\(ansi256Index)m"
        case .truecolor: return "\u{1B}[48;2;\(red);\(green);\(blue)m"
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
