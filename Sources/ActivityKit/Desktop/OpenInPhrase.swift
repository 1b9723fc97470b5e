// "Open in <App>" for every locale an application's entry or the broker's phrase table knows.

/// The names of an installed application's "Open in <App>" activity (API.md §4.1): the
/// entry's own localized `Name[…]` inside the broker's "Open in %@" phrase for that locale.
public enum OpenInPhrase {
    /// "Open in %@" in the languages the built-in manifests are translated to.
    public static let translations: [String: String] = [
        "de": "In %@ öffnen", "fr": "Ouvrir dans %@", "es": "Abrir en %@", "ja": "%@で開く",
    ]
    /// The phrase where no translation fits.
    public static let english = "Open in %@"

    /// The unlocalized name and the localized names of "Open in <App>" for an application
    /// called `name` with `Name[…]` translations `localized`.
    ///
    /// Every locale of the phrase table and of the entry gets a name; a locale's application
    /// name is looked up as GLib looks up `Name[…]` (`DesktopEntry.localeFallbacks`), and its
    /// phrase by the same fallbacks. `Activity.localizedName` tries a caller's locale in the
    /// same order, so the name a caller gets embeds the `Name[…]` GIO shows for that locale.
    public static func names(name: String, localized: [String: String]) -> (
        name: String, names: [String: String]
    ) {
        func appName(_ locale: String) -> String {
            for candidate in DesktopEntry.localeFallbacks(locale) {
                if let value = localized[candidate], !value.isEmpty { return value }
            }
            return name
        }
        func phrase(_ locale: String) -> String {
            for candidate in DesktopEntry.localeFallbacks(locale) {
                if let value = translations[candidate] { return value }
            }
            return english
        }
        var names: [String: String] = [:]
        for locale in Set(translations.keys).union(localized.keys) {
            names[locale] = phrase(locale).replacing("%@", with: appName(locale))
        }
        return (english.replacing("%@", with: name), names)
    }
}
