// Tests of "Open in <App>" names: the entry's own locales get their language's phrase, looked up as GLib does.
import Testing

@testable import ActivityKit

@Suite struct OpenInPhraseTests {
    static func activity(_ names: (name: String, names: [String: String])) throws -> Activity {
        Activity(
            id: try ActivityID("desktop.x"), name: names.name, names: names.names, category: .action,
            origin: .desktop,
            perform: .open(try OpenSpec(template: try Template("{url}"))))
    }

    @Test func aJapaneseOnlyNameGetsTheJapanesePhrase() throws {
        let app = try Self.activity(OpenInPhrase.names(name: "HexChat", localized: ["ja_JP": "ヘックスチャット"]))
        #expect(app.localizedName(for: "ja_JP.UTF-8") == "ヘックスチャットで開く")
        #expect(app.localizedName(for: "ja") == "HexChatで開く")
        #expect(app.localizedName(for: nil) == "Open in HexChat")
    }

    /// (locale asked, expected name) for an entry with many translations.
    @Test(arguments: [
        ("zh_TW.UTF-8", "Open in 火狐"),
        ("pt_BR.UTF-8", "Open in Navegador"),
        ("pt_PT", "Open in Firefox"),
        ("ca_ES.UTF-8@valencia", "Open in Navegador valencià"),
        ("ca_ES", "Open in Navegador (ca_ES)"),
        ("ca@valencia", "Open in Navegador valencià"),
        ("de_AT", "In Firefox öffnen"),
        ("de_DE", "In Feuerfuchs öffnen"),
        ("fr_FR", "Ouvrir dans Firefox"),
        ("C", "Open in Firefox"),
    ])
    func localesAreLookedUpAsGLibDoes(locale: String, expected: String) throws {
        let app = try Self.activity(
            OpenInPhrase.names(
                name: "Firefox",
                localized: [
                    "zh_TW": "火狐", "pt_BR": "Navegador", "ca@valencia": "Navegador valencià",
                    "ca_ES": "Navegador (ca_ES)",
                    "de_DE": "Feuerfuchs",
                ]))
        #expect(app.localizedName(for: locale) == expected)
    }
}
