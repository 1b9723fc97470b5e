// TerminalColor: an RGB color and its truecolor / 256-color escape forms.

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

/// An RGB color and its escape sequences.
///
/// Built from components: parsing a colour an app gives (a name or `#rrggbb`) is Navigation's
/// `TintColor`, whose components the share CLI hands over.
public struct TerminalColor: Equatable, Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

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
