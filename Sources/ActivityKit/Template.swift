// Template: a perform string with {url} {title} {text} placeholders and {{ }} escapes.

/// A parsed template. `{url}`, `{title}` and `{text}` are replaced by the items (empty when absent);
/// `{{` and `}}` stand for literal braces.
public struct Template: Hashable, Sendable, CustomStringConvertible {
    /// A placeholder name.
    public enum Placeholder: String, Hashable, Sendable, CaseIterable {
        case url, title, text
    }

    /// A piece of the template.
    public enum Segment: Hashable, Sendable {
        case literal(String)
        case placeholder(Placeholder)
    }

    /// The template as written.
    public let source: String
    /// The parsed pieces, adjacent literals merged.
    public let segments: [Segment]

    /// Parses `source`.
    /// - Throws: `.invalidArgument` for an unknown placeholder, an unclosed `{` or a lone `}`.
    public init(_ source: String) throws(ActivityError) {
        self.source = source
        var segments: [Segment] = []
        var literal = ""
        var chars = Substring(source)
        while let c = chars.first {
            chars = chars.dropFirst()
            if c == "{" {
                if chars.first == "{" {
                    chars = chars.dropFirst()
                    literal.append("{")
                    continue
                }
                guard let close = chars.firstIndex(of: "}") else {
                    throw .invalidArgument(
                        "template '\(HostName.printable(String(source.prefix(80))))' has a '{' without a closing '}' (write '{{' for a literal brace)"
                    )
                }
                let name = chars[..<close]
                guard let p = Placeholder(rawValue: String(name)) else {
                    throw .invalidArgument(
                        "template '\(HostName.printable(String(source.prefix(80))))' has an unknown placeholder {\(HostName.printable(String(name.prefix(40))))} (expected {url}, {title} or {text})"
                    )
                }
                chars = chars[chars.index(after: close)...]
                if !literal.isEmpty { segments.append(.literal(literal)); literal = "" }
                segments.append(.placeholder(p))
            } else if c == "}" {
                guard chars.first == "}" else {
                    throw .invalidArgument(
                        "template '\(HostName.printable(String(source.prefix(80))))' has a '}' without an opening '{' (write '}}' for a literal brace)"
                    )
                }
                chars = chars.dropFirst()
                literal.append("}")
            } else {
                literal.append(c)
            }
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    /// Whether the template uses any placeholder.
    public var hasPlaceholders: Bool {
        segments.contains { if case .placeholder = $0 { return true } else { return false } }
    }

    /// Whether the template is exactly `{url}`.
    public var isURLOnly: Bool { segments == [.placeholder(.url)] }

    /// Replaces placeholders by the raw values: for exec arguments and stdin, never seen by a shell.
    public func expandRaw(_ items: Items) -> String {
        expand(items) { $0 }
    }

    /// Replaces placeholders by their values percent-encoded as a URL query component: every byte
    /// outside RFC 3986 unreserved (`A-Z a-z 0-9 - . _ ~`) becomes `%XX` of its UTF-8 encoding.
    public func expandQueryEncoded(_ items: Items) -> String {
        expand(items, Template.percentEncode)
    }

    private func expand(_ items: Items, _ transform: (String) -> String) -> String {
        var out = ""
        for segment in segments {
            switch segment {
            case .literal(let s): out += s
            case .placeholder(.url): out += transform(items.url.string)
            case .placeholder(.title): out += transform(items.title ?? "")
            case .placeholder(.text): out += transform(items.text ?? "")
            }
        }
        return out
    }

    /// Percent-encodes every byte of `s` outside RFC 3986 unreserved.
    public static func percentEncode(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for b in s.utf8 {
            if isUnreserved(b) {
                out.append(b)
            } else {
                out.append(UInt8(ascii: "%"))
                out.appendHex(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `b` is RFC 3986 unreserved (`A-Z a-z 0-9 - . _ ~`): kept as it is by `percentEncode`.
    static func isUnreserved(_ b: UInt8) -> Bool {
        HostName.isAlnum(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "_")
            || b == UInt8(ascii: "~")
    }

    public var description: String { source }
}
