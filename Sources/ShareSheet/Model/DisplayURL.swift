// A URL split for display: the host, which says whose page it is, apart from the rest.

/// The three parts the header draws: `leading` and `trailing` dimmed, `host` in bold.
///
/// The host is the one part a person must read to know where a link goes, so it is found the
/// way a URL parser finds it (after any `user:password@`, before any `:port`), not by looking
/// for the first dot: `https://bank.example@evil.example/` shows `evil.example` in bold.
public struct DisplayURL: Hashable, Sendable {
    public let leading: String
    public let host: String
    public let trailing: String

    public init(_ url: String) {
        guard let schemeEnd = url.range(of: "://") else {
            (leading, host, trailing) = ("", "", url)
            return
        }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd =
            url[authorityStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        let authority = url[authorityStart..<authorityEnd]
        let hostStart =
            authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex
        var hostEnd = authority.endIndex
        if let colon = authority[hostStart...].lastIndex(of: ":"),
            !authority[colon...].contains("]"),
            authority[authority.index(after: colon)...].allSatisfy(\.isASCIIDigit)
        {
            hostEnd = colon
        }
        leading = String(url[..<hostStart])
        host = String(url[hostStart..<hostEnd])
        trailing = String(url[hostEnd...])
    }

    /// The whole URL again.
    public var text: String { leading + host + trailing }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
