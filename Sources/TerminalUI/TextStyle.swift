// TextStyle: bold/dim/reverse/underline and colors, rendered as ANSI SGR sequences.

/// A text style for one run of text; `apply` wraps text in its SGR sequence and a reset.
public struct TextStyle: Equatable, Sendable {
    public var bold = false
    public var dim = false
    public var underline = false
    public var reverse = false
    public var foreground: TerminalColor?
    public var background: TerminalColor?

    public init(
        bold: Bool = false, dim: Bool = false, underline: Bool = false, reverse: Bool = false,
        foreground: TerminalColor? = nil, background: TerminalColor? = nil
    ) {
        self.bold = bold
        self.dim = dim
        self.underline = underline
        self.reverse = reverse
        self.foreground = foreground
        self.background = background
    }

    public static let plain = TextStyle()
    public static let bold = TextStyle(bold: true)
    public static let dim = TextStyle(dim: true)
    public static let reverse = TextStyle(reverse: true)

    /// The SGR sequence for this style ("" for plain); colors only as `colors` allows.
    public func sequence(colors: ColorSupport) -> String {
        var codes: [String] = []
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if underline { codes.append("4") }
        if reverse { codes.append("7") }
        var result = codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
        if let foreground { result += foreground.foreground(colors) }
        if let background { result += background.background(colors) }
        return result
    }

    /// `text` between this style's sequence and a reset. `text` must already be sanitized.
    public func apply(_ text: String, colors: ColorSupport) -> String {
        let start = sequence(colors: colors)
        return start.isEmpty ? text : start + text + "\u{1B}[0m"
    }
}
