// TintColor: the accent colour of a browsing or navigation session's controls, from "#0a84ff" or a name; the one colour parser.

import Foundation

/// The accent colour for a session's controls (`SFSafariViewController.preferredControlTintColor`).
///
/// The one parser of a colour an app gives: `#rgb`, `#rrggbb` (case-insensitive), a few CSS
/// colour names or an Apple system tint (`systemBlue`). A view takes the components: the
/// terminal's `TerminalColor` is built from them. `hex` is the `#rrggbb` form `Browse` sends.
/// It lives in the client so that `BrokerProxy.browse` and Navigation's in-process session
/// (which keeps the name) share one type.
public struct TintColor: Hashable, Sendable, CustomStringConvertible {
    /// Names accepted (lowercase), with their colours: basic CSS names and the Apple system tints.
    public static let names: [String: TintColor] = {
        let table: [(String, UInt32)] = [
            ("black", 0x000000), ("white", 0xFFFFFF), ("gray", 0x808080), ("grey", 0x808080),
            ("red", 0xFF0000), ("green", 0x008000), ("blue", 0x0000FF), ("yellow", 0xFFFF00),
            ("orange", 0xFFA500), ("purple", 0x800080), ("pink", 0xFFC0CB), ("brown", 0xA52A2A),
            ("cyan", 0x00FFFF), ("magenta", 0xFF00FF), ("teal", 0x008080), ("indigo", 0x4B0082),
            ("navy", 0x000080), ("maroon", 0x800000), ("olive", 0x808000),
            ("systemblue", 0x007AFF), ("systemred", 0xFF3B30), ("systemgreen", 0x34C759),
            ("systemorange", 0xFF9500), ("systemyellow", 0xFFCC00), ("systempink", 0xFF2D55),
            ("systempurple", 0xAF52DE), ("systemteal", 0x5AC8FA), ("systemindigo", 0x5856D6),
            ("systemgray", 0x8E8E93),
        ]
        return Dictionary(
            uniqueKeysWithValues: table.map { name, value in
                (
                    name,
                    TintColor(
                        red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF),
                        blue: UInt8(value & 0xFF))
                )
            })
    }()

    /// Red component.
    public let red: UInt8
    /// Green component.
    public let green: UInt8
    /// Blue component.
    public let blue: UInt8
    // No public init from components: apps give a string (`Browse` sends `hex`). The parser is
    // in an extension so that Swift's memberwise init serves it and the name table.

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

extension TintColor {
    /// Parses `#rgb`, `#rrggbb` or a colour name; `nil` when it is none of these.
    public init?(_ string: String) {
        let text = string.trimmingCharacters(in: .whitespaces).lowercased()
        if let color = Self.names[text] {
            self = color
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
}
