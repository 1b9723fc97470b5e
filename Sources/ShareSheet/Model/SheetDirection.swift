// Which way the sheet is laid out: left to right, or right to left for Arabic, Hebrew, Persian, Urdu….

/// The direction the sheet's language writes in, and so the direction of its layout: in a
/// right-to-left language the Share row starts at the right edge, the header bar and lists are
/// mirrored, and the arrow keys follow what is drawn (Left moves to the next activity).
///
/// Decided from the locale the sheet is shown for (the `locale` option, else the environment),
/// not from GTK's default direction: GTK takes that from its own translation of
/// "default:LTR" in the process's locale, so it is right-to-left only when the locale is
/// installed and gtk40's catalogue has the language, and it is one value for the whole process,
/// while each `Show` may ask for another language. A right-to-left language is laid out right to
/// left even where the sheet has no table for it and shows English words, as a GTK app without
/// that translation is under such a locale; activity names come from the broker in the
/// language asked for.
public enum SheetDirection: Hashable, Sendable {
    case leftToRight, rightToLeft

    /// The languages written right to left (ISO 639 codes as locales spell them; `iw` and `ji`
    /// are old codes for Hebrew and Yiddish that some systems still use).
    static let rightToLeftLanguages: Set<String> = [
        "ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "nqo", "ps", "sd", "syr", "ug", "ur", "yi", "ji",
    ]

    /// The direction of `locale` (`he_IL.UTF-8`, `ar`, `fa-IR`…). A `@devanagari` modifier
    /// (`sd_IN@devanagari`, `ks_IN@devanagari`) names a left-to-right script.
    public init(locale: String) {
        let language = SheetStrings.language(of: locale)
        let leftToRightScript = locale.lowercased().hasSuffix("@devanagari")
        self =
            Self.rightToLeftLanguages.contains(language) && !leftToRightScript ? .rightToLeft : .leftToRight
    }

    /// The step in display order an arrow key makes along a row: Right goes to the next
    /// activity in a left-to-right layout, to the previous one in a right-to-left layout, where
    /// the next is drawn to the left. Nil for any other key.
    func step(_ key: SheetKey) -> Int? {
        let forward = self == .leftToRight ? 1 : -1
        switch key {
        case .right: return forward
        case .left: return -forward
        default: return nil
        }
    }
}
