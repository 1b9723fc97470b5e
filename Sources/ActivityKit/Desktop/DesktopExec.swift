// An Exec line split into arguments with its field codes, expanded for one URL or into a broker argv template.

/// Why an Exec line cannot be used.
public enum DesktopExecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The Exec line breaks the specification's quoting or field code rules.
    case invalid(String)
    /// The Exec line is valid but cannot take this URL (e.g. `%f` and a non-`file:` URL).
    case notApplicable(String)

    public var description: String {
        switch self {
        case .invalid(let message), .notApplicable(let message): return message
        }
    }
}

/// The `Exec` key of a desktop entry, split into arguments per the Desktop Entry
/// Specification's quoting rules. Never involves a shell.
///
/// Quoting: an argument (or part of one) may be enclosed in double quotes; inside,
/// `\"`, `` \` ``, `\$` and `\\` stand for the character, an unescaped `` ` `` or `$` is an
/// error, and any other backslash is kept as written. Outside quotes the reserved
/// characters (`'` `\` `>` `<` `~` `|` `&` `;` `$` `*` `?` `#` `(` `)` `` ` ``) are errors,
/// because the author meant a shell and we do not run one.
///
/// Field codes are recognized only outside quotes (the specification leaves codes inside
/// quotes undefined; expanding a URL into e.g. `sh -c "… %u"` would hand it to a shell, so
/// such lines are rejected). `%%` is a literal `%` everywhere. The value passed in must
/// already have the string escapes undone (`DesktopEntry.string`), which is why a literal
/// backslash in a quoted argument is written `\\\\` in the file.
public struct DesktopExec: Hashable, Sendable {
    /// A piece of one argument.
    public enum Piece: Hashable, Sendable {
        case literal(String)
        /// The letter after `%` (never `%` itself, which becomes a literal).
        case fieldCode(Character)
    }

    /// The arguments, each a sequence of literal text and field codes.
    public let arguments: [[Piece]]

    /// The single file or URL code (`u`, `U`, `f`, `F`), or `nil` when the program takes
    /// no file arguments — then it is launched without the URL (the specification says a
    /// program without such a code takes no files; nothing is appended).
    public let urlFieldCode: Character?

    static let reserved: Set<Character> = [
        "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`",
    ]
    static let known: Set<Character> = ["f", "F", "u", "U", "i", "c", "k", "d", "D", "n", "N", "v", "m"]
    static let deprecated: Set<Character> = ["d", "D", "n", "N", "v", "m"]

    /// Parses an Exec value; throws `.invalid` naming the rule broken.
    public init(parsing exec: String) throws(DesktopExecError) {
        var args: [[Piece]] = []
        var pieces: [Piece] = []
        var literal = ""
        var inArgument = false
        var inQuotes = false
        var iterator = exec.makeIterator()

        func flushLiteral() {
            if !literal.isEmpty { pieces.append(.literal(literal)); literal = "" }
        }
        func endArgument() {
            flushLiteral()
            if inArgument { args.append(pieces) }
            pieces = []
            inArgument = false
        }

        while let c = iterator.next() {
            if inQuotes {
                switch c {
                case "\"": inQuotes = false
                case "\\":
                    guard let next = iterator.next() else {
                        throw .invalid("Exec ends inside a quoted argument")
                    }
                    if "\"`$\\".contains(next) {
                        literal.append(next)
                    } else {
                        literal.append("\\"); literal.append(next)
                    }
                case "`", "$": throw .invalid("'\(c)' must be escaped inside a quoted Exec argument")
                case "%":
                    guard let next = iterator.next() else { throw .invalid("Exec ends with a lone '%'") }
                    guard next == "%" else {
                        throw .invalid("field code %\(next) inside a quoted argument is not supported")
                    }
                    literal.append("%")
                default: literal.append(c)
                }
                continue
            }
            switch c {
            case " ", "\t", "\n":
                endArgument()
            case "\"":
                inQuotes = true
                inArgument = true
            case "%":
                inArgument = true
                guard let next = iterator.next() else { throw .invalid("Exec ends with a lone '%'") }
                if next == "%" {
                    literal.append("%")
                } else if Self.known.contains(next) {
                    flushLiteral()
                    pieces.append(.fieldCode(next))
                } else {
                    throw .invalid("unknown field code %\(next) in Exec")
                }
            default:
                if Self.reserved.contains(c) {
                    throw .invalid("reserved character '\(c)' must be inside a quoted Exec argument")
                }
                inArgument = true
                literal.append(c)
            }
        }
        if inQuotes { throw .invalid("unterminated quote in Exec") }
        endArgument()
        guard !args.isEmpty else { throw .invalid("Exec is empty") }

        var urlCode: Character?
        for arg in args {
            for case .fieldCode(let code) in arg where "fFuU".contains(code) {
                if let urlCode {
                    throw .invalid("Exec has more than one file or URL field code (%\(urlCode), %\(code))")
                }
                urlCode = code
                if (code == "F" || code == "U") && arg.count != 1 {
                    throw .invalid("%\(code) must be an argument on its own")
                }
            }
            if arg.contains(.fieldCode("i")) && arg.count != 1 {
                throw .invalid("%i must be an argument on its own")
            }
        }
        if case .fieldCode = args[0].first {
            throw .invalid("Exec must start with a program, not a field code")
        }
        arguments = args
        urlFieldCode = urlCode
    }

    /// What %i, %c and %k expand to.
    public struct Context: Hashable, Sendable {
        /// The `Icon` value; `%i` expands to nothing when `nil` or empty.
        public var icon: String?
        /// The `Name` translated for the broker's locale (`%c`).
        public var name: String
        /// The desktop file's path (`%k`); empty when unknown.
        public var desktopFilePath: String?

        public init(icon: String?, name: String, desktopFilePath: String?) {
            self.icon = icon
            self.name = name
            self.desktopFilePath = desktopFilePath
        }
    }

    /// The argv to launch the program with one URL.
    ///
    /// `%u`/`%U` become the URL as one argument; `%f`/`%F` the local path of a `file:` URL
    /// (percent-decoded), otherwise this throws `.notApplicable`. Deprecated codes expand to
    /// nothing, and an argument made only of codes that expand to nothing is dropped.
    public func arguments(forURL url: String, context: Context) throws(DesktopExecError) -> [String] {
        try expand(context: context, escape: { $0 }) { code throws(DesktopExecError) in
            if code == "u" || code == "U" { return url }
            guard let path = Self.localPath(ofFileURL: url) else {
                throw .notApplicable(
                    "Exec takes local files only (%\(code)), not '\(Self.scheme(of: url))' URLs")
            }
            return path
        }
    }

    /// The argv template for the broker's exec dispatcher (API.md §4): where `%u`/`%U` stand
    /// the element holds `{url}`, and every literal `{` or `}` is doubled.
    ///
    /// Throws `.notApplicable` for `%f`/`%F` (the path depends on the URL and a template
    /// holds only the raw URL); when the line has no URL code the template has no `{url}`.
    public func argvTemplate(context: Context) throws(DesktopExecError) -> [String] {
        try expand(context: context, escape: Self.escapeBraces) { code throws(DesktopExecError) in
            if code == "u" || code == "U" { return "{url}" }
            throw .notApplicable("Exec takes local files only (%\(code)), so it cannot be given a URL")
        }
    }

    /// Doubles `{` and `}` so the broker's template expansion leaves them as written.
    public static func escapeBraces(_ s: String) -> String {
        guard s.contains(where: { $0 == "{" || $0 == "}" }) else { return s }
        var out = ""
        for c in s {
            out.append(c)
            if c == "{" || c == "}" { out.append(c) }
        }
        return out
    }

    private func expand(
        context: Context, escape: (String) -> String,
        url: (Character) throws(DesktopExecError) -> String
    ) throws(DesktopExecError) -> [String] {
        var argv: [String] = []
        for arg in arguments {
            if arg == [.fieldCode("i")] {
                if let icon = context.icon, !icon.isEmpty { argv += ["--icon", escape(icon)] }
                continue
            }
            var out = ""
            var onlyCodes = true
            for piece in arg {
                switch piece {
                case .literal(let text):
                    out += escape(text)
                    onlyCodes = false
                case .fieldCode(let code):
                    switch code {
                    case "u", "U", "f", "F": out += try url(code)
                    case "c": out += escape(context.name)
                    case "k": out += escape(context.desktopFilePath ?? "")
                    default:
                        precondition(Self.deprecated.contains(code), "parser admitted unknown code %\(code)")
                    }
                }
            }
            // A quoted "" is a real empty argument; codes that expanded to nothing are removed.
            if out.isEmpty && onlyCodes && !arg.isEmpty { continue }
            argv.append(out)
        }
        return argv
    }

    static func scheme(of url: String) -> String {
        url.firstIndex(of: ":").map { String(url[..<$0]).lowercased() } ?? ""
    }

    /// The local path of a `file:` URL on this host (no host, or `localhost`), percent-decoded.
    ///
    /// Read as Foundation's `URLComponents` read it (a differential test holds them together):
    /// the path ends at `?` or `#`, is not normalized, and a stray `%` stays as written; a path
    /// whose escapes decode to invalid UTF-8 or to a NUL has none.
    static func localPath(ofFileURL url: String) -> String? {
        guard scheme(of: url) == "file" else { return nil }
        let bytes = Array(url.utf8)
        var rest = bytes[(bytes.firstIndex(of: UInt8(ascii: ":"))! + 1)...]
        if let end = rest.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            rest = rest[..<end]
        }
        if rest.starts(with: [0x2F, 0x2F]) {
            let authority = rest.dropFirst(2).prefix { $0 != UInt8(ascii: "/") }
            rest = rest[authority.endIndex...]
            // The host: after the last `@` (userinfo), before a port's `:` (outside an IPv6 literal).
            var host = authority
            if let at = host.lastIndex(of: UInt8(ascii: "@")) { host = host[(at + 1)...] }
            if let colon = host.lastIndex(of: UInt8(ascii: ":")), !host[colon...].contains(UInt8(ascii: "]"))
            {
                host = host[..<colon]
            }
            guard let name = SharedURL.percentDecoded(host), name.isEmpty || name.lowercased() == "localhost"
            else { return nil }
        }
        // A NUL (`%00`) would cut the path short in the program's argv: no such file exists.
        guard let path = SharedURL.percentDecoded(rest), path.hasPrefix("/"), !path.utf8.contains(0)
        else { return nil }
        return path
    }
}
