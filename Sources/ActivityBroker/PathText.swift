// PathText: the few string operations on paths and lines that full Foundation used to provide.

/// The last component of a path ("/usr/bin/foo" → "foo"), ignoring trailing slashes; the path
/// itself when it has no slash (as `NSString.lastPathComponent`).
func lastPathComponent(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? (path.isEmpty ? "" : "/")
}

/// The directory of a path ("/a/b/c" → "/a/b", "/a" → "/", "c" → ""), as
/// `NSString.deletingLastPathComponent` for the absolute paths the broker builds.
func directoryName(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Unicode space separators and U+0009, as
    /// `CharacterSet.whitespaces`).
    func trimmingSpaces() -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
