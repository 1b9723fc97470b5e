// The sheet's own words in each language it speaks (activity names come localized from the broker).
import Foundation

/// The user-visible strings of the sheet, in one language.
///
/// The language comes from the `locale` option of `Show` when given, else from the environment
/// the way gettext reads it (`LC_ALL`, then `LC_MESSAGES`, then `LANG`); languages without a
/// table fall back to English.
public struct SheetStrings: Hashable, Sendable {
    /// The language code of the table in use (`en`, `de`).
    public let language: String
    /// The layout direction of the language asked for (right to left for Hebrew even while
    /// its words fall back to English: `SheetDirection`).
    public let direction: SheetDirection

    private let table: [Key: String]

    enum Key: Hashable, Sendable {
        case windowTitle, share, actions, cancel, close, noMatches, search, from
        case sendingWith, performing, failedHeading, failedWithout
    }

    /// The languages with a table.
    public static let languages = ["en", "de"]

    private static let tables: [String: [Key: String]] = [
        "en": [
            .windowTitle: "Share",
            .share: "Share",
            .actions: "Actions",
            .cancel: "Cancel",
            .close: "Close",
            .noMatches: "No matches",
            .search: "Search",
            .from: "From %@",
            .sendingWith: "Sending with %@…",
            .performing: "%@…",
            .failedHeading: "%@ did not finish",
            .failedWithout: "Sharing did not finish",
        ],
        "de": [
            .windowTitle: "Teilen",
            .share: "Teilen",
            .actions: "Aktionen",
            .cancel: "Abbrechen",
            .close: "Schließen",
            .noMatches: "Keine Treffer",
            .search: "Suchen",
            .from: "Von %@",
            .sendingWith: "Senden mit %@…",
            .performing: "%@…",
            .failedHeading: "%@ wurde nicht abgeschlossen",
            .failedWithout: "Teilen wurde nicht abgeschlossen",
        ],
    ]

    /// The table for `locale` (`de_DE.UTF-8`, `de`, `C`…); English when there is none.
    public init(locale: String) {
        let language = Self.language(of: locale)
        self.language = Self.tables[language] == nil ? "en" : language
        direction = SheetDirection(locale: locale)
        table = Self.tables[self.language] ?? [:]
    }

    /// The table for an explicit `locale` option, else for the environment's locale variables.
    public static func choose(option: String?, environment: [String: String]) -> SheetStrings {
        if let option, !option.isEmpty { return SheetStrings(locale: option) }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty { return SheetStrings(locale: value) }
        }
        return SheetStrings(locale: "en")
    }

    /// `de_DE.UTF-8@euro` → `de`.
    static func language(of locale: String) -> String {
        let end = locale.firstIndex { $0 == "_" || $0 == "-" || $0 == "." || $0 == "@" } ?? locale.endIndex
        return locale[..<end].lowercased()
    }

    private func text(_ key: Key) -> String { table[key] ?? Self.tables["en"]?[key] ?? "" }

    private func text(_ key: Key, _ argument: String) -> String {
        text(key).replacingFirst("%@", with: argument)
    }

    public var share: String { text(.share) }
    public var actions: String { text(.actions) }
    public var cancel: String { text(.cancel) }
    public var close: String { text(.close) }
    public var noMatches: String { text(.noMatches) }
    public var search: String { text(.search) }

    /// "Share – Page title" (just "Share" for an untitled page): tests and window lists find it.
    public func windowTitle(pageTitle: String) -> String {
        pageTitle.isEmpty ? text(.windowTitle) : text(.windowTitle) + " – " + pageTitle
    }

    /// "From Firefox".
    public func from(app: String) -> String { text(.from, app) }

    /// The progress line after a choice: "Sending with Telegram…" for a share, "Copy Link…"
    /// for an action.
    public func progress(for activity: SheetActivity) -> String {
        text(activity.category == .share ? .sendingWith : .performing, activity.name)
    }

    /// The heading above a failure message.
    public func failureHeading(for activity: SheetActivity?) -> String {
        activity.map { text(.failedHeading, $0.name) } ?? text(.failedWithout)
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
