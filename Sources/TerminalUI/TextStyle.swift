// TextStyle: bold/dim/reverse/underline and colors, rendered as ANSI SGR sequences.

/// A text style for one run of text; `apply` wraps text in its SGR sequence and a reset.
public struct TextStyle: Equatable, Sendable {
    /// A text attribute, by its SGR code.
    public enum Attribute: Int, CaseIterable, Sendable {
        case bold = 1, dim = 2, underline = 4, reverse = 7
    }

    /// The SGR attributes (bold, dim, …) switched on; each is written as its own code.
    public var attributes: Set<Attribute>
    public var foreground: TerminalColor?
    public var background: TerminalColor?

    public init(
        _ attributes: Set<Attribute> = [], foreground: TerminalColor? = nil, background: TerminalColor? = nil
    ) {
        self.attributes = attributes
        self.foreground = foreground
        self.background = background
    }

    public static let plain = TextStyle()
    public static let bold = TextStyle([.bold])
    public static let dim = TextStyle([.dim])
    public static let reverse = TextStyle([.reverse])

    /// The SGR sequence for this style ("" for plain); colors only as `colors` allows.
    public func sequence(colors: ColorSupport) -> String {
        let codes = Attribute.allCases.filter(attributes.contains).map { String($0.rawValue) }
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
