// TintColor: the accent colour of a navigation session's controls, from "#0a84ff" or a name.

import Foundation

/// The accent colour for a session's controls (`SFSafariViewController.preferredControlTintColor`).
///
/// Parsed from `#rgb`, `#rrggbb` (case-insensitive) or one of a few CSS colour names.
public struct TintColor: Hashable, Sendable, CustomStringConvertible {
    /// CSS names accepted, with their values.
    public static let names: [String: (UInt8, UInt8, UInt8)] = [
        "black": (0, 0, 0), "white": (255, 255, 255), "red": (255, 0, 0), "green": (0, 128, 0),
        "blue": (0, 0, 255), "yellow": (255, 255, 0), "orange": (255, 165, 0), "purple": (128, 0, 128),
        "pink": (255, 192, 203), "gray": (128, 128, 128), "grey": (128, 128, 128), "teal": (0, 128, 128),
        "navy": (0, 0, 128), "maroon": (128, 0, 0), "olive": (128, 128, 0), "cyan": (0, 255, 255),
        "magenta": (255, 0, 255), "indigo": (75, 0, 130), "brown": (165, 42, 42),
    ]

    /// Red component.
    public let red: UInt8
    /// Green component.
    public let green: UInt8
    /// Blue component.
    public let blue: UInt8

    /// Creates a colour from its components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#rgb`, `#rrggbb` or a colour name; `nil` when it is none of these.
    public init?(_ string: String) {
        let text = string.trimmingCharacters(in: .whitespaces).lowercased()
        if let (r, g, b) = Self.names[text] {
            self.init(red: r, green: g, blue: b)
            return
        }
        guard text.hasPrefix("#") else { return nil }
        let digits = Array(text.dropFirst())
        guard digits.allSatisfy(\.isHexDigit) else { return nil }
        let values = digits.compactMap { $0.hexDigitValue.map(UInt8.init) }
        switch values.count {
        case 3: self.init(red: values[0] * 17, green: values[1] * 17, blue: values[2] * 17)
        case 6:
            self.init(
                red: values[0] << 4 | values[1], green: values[2] << 4 | values[3],
                blue: values[4] << 4 | values[5])
        default: return nil
        }
    }

    /// `#rrggbb`, lowercase.
    public var hex: String {
        "#"
            + [red, green, blue].map { byte in
                let text = String(byte, radix: 16)
                return text.count == 1 ? "0" + text : text
            }.joined()
    }

    public var description: String { hex }
}
