// A parsed desktop entry file (Desktop Entry Specification 1.5): groups, typed values, localized lookup.

/// One `.desktop` file, parsed and checked against the syntax rules of the Desktop Entry
/// Specification 1.5.
///
/// Strict where the specification is: the first group must be `[Desktop Entry]`, and a
/// repeated group or a repeated key within a group makes the file broken (the specification
/// says "may not"). Values are stored as written and unescaped on access, so `rawValue`
/// still shows what the file says.
public struct DesktopEntry: Hashable, Sendable {
    /// The name of the main group, which must come first.
    public static let mainGroup = "Desktop Entry"

    /// The file name or path given when parsing; errors name it.
    public let fileName: String
    private let file: DesktopEntryKeyFile

    /// Parses `contents` (the whole file as text).
    ///
    /// Throws a `DesktopEntryError` naming `fileName` and the line for a malformed line, a
    /// duplicate group or key, a key before the first group, or a first group other than
    /// `[Desktop Entry]`.
    public init(parsing contents: String, fileName: String) throws(DesktopEntryError) {
        self.fileName = fileName
        file = try DesktopEntryKeyFile(parsing: contents, fileName: fileName, dialect: .desktopEntry)
        guard let first = file.groups.first else {
            throw DesktopEntryError(fileName: fileName, line: nil, message: "no [Desktop Entry] group")
        }
        guard first.name == Self.mainGroup else {
            throw DesktopEntryError(
                fileName: fileName, line: first.line,
                message: "the first group must be [Desktop Entry], found [\(first.name)]")
        }
    }

    /// Parses a file read as bytes; throws for invalid UTF-8 (the specification requires UTF-8).
    public init(data: [UInt8], fileName: String) throws(DesktopEntryError) {
        guard let text = String(validating: Self.droppingByteOrderMark(data), as: UTF8.self) else {
            throw DesktopEntryError(fileName: fileName, line: nil, message: "not valid UTF-8")
        }
        try self.init(parsing: text, fileName: fileName)
    }

    /// `bytes` without a leading UTF-8 byte order mark, which `String(data:encoding:)` dropped.
    static func droppingByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    }

    /// The group names in file order (the first is always `Desktop Entry`).
    public var groupNames: [String] { file.groups.map(\.name) }

    /// The keys of `group` in file order, locale suffixes included (`Name[de]`).
    public func keys(group: String = mainGroup) -> [String] { file.group(group)?.keys ?? [] }

    /// The value exactly as written after `=`, escapes not undone.
    public func rawValue(_ key: String, group: String = mainGroup) -> String? {
        file.group(group)?.values[key]?.raw
    }

    /// The 1-based line on which `key` is set, for error messages.
    public func line(ofKey key: String, group: String = mainGroup) -> Int? {
        file.group(group)?.values[key]?.line
    }

    /// A `string` (or `iconstring`) value with \s \n \t \r \\ undone.
    public func string(_ key: String, group: String = mainGroup) -> String? {
        rawValue(key, group: group).map { DesktopEntryKeyFile.unescape(Substring($0)) }
    }

    /// A `strings` value: split on unescaped `;` (a trailing `;` is optional), `\;` undone.
    public func strings(_ key: String, group: String = mainGroup) -> [String]? {
        rawValue(key, group: group).map(DesktopEntryKeyFile.splitList)
    }

    /// A `boolean` value; `nil` when absent.
    ///
    /// Throws (naming the line) for anything but `true` or `false`, the only values the
    /// specification allows.
    public func boolean(_ key: String, group: String = mainGroup) throws(DesktopEntryError) -> Bool? {
        guard let raw = rawValue(key, group: group) else { return nil }
        switch raw {
        case "true": return true
        case "false": return false
        default:
            throw DesktopEntryError(
                fileName: fileName, line: line(ofKey: key, group: group),
                message: "\(key) must be 'true' or 'false', found '\(raw)'")
        }
    }

    /// A `localestring` value for `locale` (a POSIX locale such as `de_DE.UTF-8@euro`), in
    /// GLib's order (`localeFallbacks`), then the unlocalized key. The encoding part of the
    /// locale is ignored.
    public func localizedString(_ key: String, locale: String?, group: String = mainGroup) -> String? {
        for candidate in locale.map(Self.localeFallbacks) ?? [] {
            if let value = string("\(key)[\(candidate)]", group: group) { return value }
        }
        return string(key, group: group)
    }

    /// Every translation of `key` as written: locale suffix → unescaped value (`Name[de]`
    /// gives `["de": …]`); the unlocalized value is not included.
    public func localizedValues(_ key: String, group: String = mainGroup) -> [String: String] {
        var result: [String: String] = [:]
        let prefix = key + "["
        for k in keys(group: group) where k.hasPrefix(prefix) && k.hasSuffix("]") {
            let locale = String(k.dropFirst(prefix.count).dropLast())
            result[locale] = string(k, group: group)
        }
        return result
    }

    /// The locale keys to try for `locale`, most specific first, in the order GLib's key files
    /// use (`g_get_locale_variants`), which GIO's names follow: the modifier before the
    /// country, e.g. `sr_YU.UTF-8@Latn` → `sr_YU@Latn`, `sr@Latn`, `sr_YU`, `sr`. (The Desktop
    /// Entry Specification lists `sr_YU` before `sr@Latn`; an entry with both differs.)
    public static func localeFallbacks(_ locale: String) -> [String] {
        var rest = Substring(locale)
        var modifier: Substring?
        if let at = rest.firstIndex(of: "@") {
            modifier = rest[rest.index(after: at)...]
            rest = rest[..<at]
        }
        if let dot = rest.firstIndex(of: ".") { rest = rest[..<dot] }
        var country: Substring?
        if let underscore = rest.firstIndex(of: "_") {
            country = rest[rest.index(after: underscore)...]
            rest = rest[..<underscore]
        }
        let lang = rest
        guard !lang.isEmpty else { return [] }
        var result: [String] = []
        if let country, !country.isEmpty, let modifier, !modifier.isEmpty {
            result.append("\(lang)_\(country)@\(modifier)")
        }
        if let modifier, !modifier.isEmpty { result.append("\(lang)@\(modifier)") }
        if let country, !country.isEmpty { result.append("\(lang)_\(country)") }
        result.append(String(lang))
        return result
    }
}
