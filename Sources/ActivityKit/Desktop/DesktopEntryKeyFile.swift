// The shared line parser for the "key file" syntax of desktop entries and mimeapps.list.

/// Parsed groups and raw (still escaped) values of a freedesktop key file.
///
/// Internal: `DesktopEntry` and `MimeAppsList` build on it with their own rules for
/// duplicates and for which group must come first.
struct DesktopEntryKeyFile: Hashable, Sendable {
    /// One `Key=Value` line; `raw` is the value before unescaping.
    struct Value: Hashable, Sendable {
        var raw: String
        var line: Int
    }

    /// One `[Group]` with its keys in file order (a key includes its `[locale]` suffix).
    struct Group: Hashable, Sendable {
        var name: String
        var line: Int
        var keys: [String] = []
        var values: [String: Value] = [:]
    }

    /// Which rules apply beyond the common line syntax.
    enum Dialect {
        /// Desktop entries: key names only A-Za-z0-9- (plus `[locale]`); a repeated group or
        /// key makes the file broken, as the specification forbids both.
        case desktopEntry
        /// mimeapps.list: keys are MIME types; tolerant of files in the wild, so repeated
        /// groups merge and the first of repeated keys wins.
        case mimeApps
    }

    var groups: [Group] = []

    init(parsing text: String, fileName: String, dialect: Dialect) throws(DesktopEntryError) {
        // "\r\n" is one Character in Swift, so it must be named as a separator itself.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        var index: [String: Int] = [:]
        var current: Int?
        for (offset, rawLine) in lines.enumerated() {
            let number = offset + 1
            var line = Substring(rawLine)
            if line.last == "\r" { line = line.dropLast() }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) || trimmed.first == "#" { continue }
            func fail(_ message: String) -> DesktopEntryError {
                DesktopEntryError(fileName: fileName, line: number, message: message)
            }
            if trimmed.first == "[" {
                var header = trimmed
                while let last = header.last, last == " " || last == "\t" { header = header.dropLast() }
                guard header.last == "]" else { throw fail("group header must end with ']'") }
                let name = String(header.dropFirst().dropLast())
                guard !name.isEmpty,
                    !name.contains(where: {
                        $0 == "[" || $0 == "]" || $0.isASCII && ($0.asciiValue! < 32 || $0.asciiValue! == 127)
                    })
                else { throw fail("invalid group name '\(name)'") }
                if let existing = index[name] {
                    if dialect == .desktopEntry { throw fail("duplicate group [\(name)]") }
                    current = existing
                } else {
                    index[name] = groups.count
                    current = groups.count
                    groups.append(Group(name: name, line: number))
                }
                continue
            }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw fail("expected 'Key=Value', a [Group] header or a # comment")
            }
            var key = trimmed[..<equals]
            while let last = key.last, last == " " || last == "\t" { key = key.dropLast() }
            let value = trimmed[trimmed.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            guard dialect == .desktopEntry ? Self.isValidKey(key) : !key.isEmpty else {
                throw fail("invalid key name '\(key)'")
            }
            guard let group = current else { throw fail("key '\(key)' before the first group header") }
            let name = String(key)
            if groups[group].values[name] != nil {
                if dialect == .desktopEntry {
                    throw fail("duplicate key '\(name)' in group [\(groups[group].name)]")
                }
                continue
            }
            groups[group].keys.append(name)
            groups[group].values[name] = Value(raw: String(value), line: number)
        }
    }

    func group(_ name: String) -> Group? { groups.first { $0.name == name } }

    /// `Name` or `Name[locale]`: the spec allows only A-Za-z0-9- in key names.
    static func isValidKey(_ key: Substring) -> Bool {
        var base = key
        if key.last == "]" {
            guard let open = key.firstIndex(of: "[") else { return false }
            let locale = key[key.index(after: open)..<key.index(before: key.endIndex)]
            guard !locale.isEmpty,
                locale.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_@.-".contains($0)) })
            else { return false }
            base = key[..<open]
        }
        return !base.isEmpty && base.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }

    /// Undoes the escapes of `string` values: \s \n \t \r \\. An unknown escape is kept as
    /// written (tolerant, like most readers) rather than failing the whole file.
    static func unescape(_ raw: Substring) -> String {
        var out = ""
        var iterator = raw.makeIterator()
        while let c = iterator.next() {
            guard c == "\\" else { out.append(c); continue }
            guard let next = iterator.next() else { out.append("\\"); break }
            switch next {
            case "s": out.append(" ")
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "\\": out.append("\\")
            default: out.append("\\"); out.append(next)
            }
        }
        return out
    }

    /// Splits a `strings` value on unescaped `;`, undoing `\;` and the string escapes in each
    /// element. Empty elements (a trailing `;`, or `a;;b`) are dropped.
    static func splitList(_ raw: String) -> [String] {
        var items: [String] = []
        var current = ""
        var iterator = raw.makeIterator()
        while let c = iterator.next() {
            if c == ";" {
                items.append(current)
                current = ""
            } else if c == "\\" {
                guard let next = iterator.next() else { current.append("\\"); break }
                if next == ";" { current.append(";") } else { current.append("\\"); current.append(next) }
            } else {
                current.append(c)
            }
        }
        items.append(current)
        return items.map { unescape(Substring($0)) }.filter { !$0.isEmpty }
    }
}
