// LocaleCandidates: the keys a locale is looked up under, in gettext's order, built once per locale.
import Testing

@testable import ActivityKit

struct LocaleCandidatesTests {
    @Test(arguments: [
        ("sr_RS.UTF-8@latin", ["sr_RS@latin", "sr-RS@latin", "sr@latin", "sr_RS", "sr-RS", "sr"]),
        ("de_DE.UTF-8@euro", ["de_DE@euro", "de-DE@euro", "de@euro", "de_DE", "de-DE", "de"]),
        ("de_DE.UTF-8", ["de_DE", "de-DE", "de"]),
        ("pt-BR", ["pt_BR", "pt-BR", "pt"]),
        ("de", ["de"]),
        ("de@", ["de"]),
        ("ja.UTF-8", ["ja"]),
        ("C", []), ("C.UTF-8", []), ("POSIX", []), ("", []), (".UTF-8@euro", []),
    ])
    func keysInGettextOrder(_ locale: String, _ keys: [String]) {
        #expect(LocaleCandidates(locale).keys == keys)
        #expect(LocaleCandidates(locale).isEmpty == keys.isEmpty)
    }

    @Test func noLocaleHasNoKeys() {
        #expect(LocaleCandidates(nil).isEmpty)
    }

    /// The candidates built once name every activity as `localizedName(for:)` does per call.
    @Test(arguments: ["de_AT.UTF-8@euro", "sr_RS.UTF-8@latin", "pt_BR", "fr_FR", "C", "de"])
    func candidatesBuiltOnceNameAsTheLocaleDoes(_ locale: String) {
        let activities = [
            ActivityTests.localized,
            activity("plain", name: "Plain"),
            activity("other", name: "Other", names: ["fr": "Autre", "de_AT": "", "de": "Andere"]),
        ]
        let candidates = LocaleCandidates(locale)
        for activity in activities {
            #expect(activity.localizedName(in: candidates) == activity.localizedName(for: locale))
        }
        #expect(activities[2].localizedName(in: candidates) == (locale.hasPrefix("de") ? "Andere" : locale.hasPrefix("fr") ? "Autre" : "Other"))
    }
}
