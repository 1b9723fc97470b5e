// The sheet's own strings: choosing the language and the phrases built from activity names.
import Testing

@testable import ShareSheet

@Suite struct SheetStringsTests {
    @Test func theOptionWinsOverTheEnvironment() {
        let strings = SheetStrings.choose(option: "de_DE", environment: ["LC_ALL": "en_US.UTF-8"])
        #expect(strings.language == "de")
        #expect(strings.cancel == "Abbrechen")
    }

    @Test func theEnvironmentIsReadAsGettextReadsIt() {
        #expect(
            SheetStrings.choose(option: nil, environment: ["LC_ALL": "de_AT.UTF-8", "LANG": "en_US"]).language
                == "de")
        #expect(
            SheetStrings.choose(option: "", environment: ["LC_MESSAGES": "de_DE@euro", "LANG": "en_US"])
                .language == "de")
        #expect(
            SheetStrings.choose(option: nil, environment: ["LC_ALL": "", "LANG": "de_CH"]).language == "de")
        #expect(SheetStrings.choose(option: nil, environment: [:]).language == "en")
    }

    @Test func unknownLanguagesFallBackToEnglish() {
        #expect(SheetStrings(locale: "fr_FR.UTF-8").language == "en")
        #expect(SheetStrings(locale: "C").language == "en")
        #expect(SheetStrings(locale: "POSIX").share == "Share")
    }

    @Test func progressNamesTheActivity() {
        let telegram = SheetActivity(id: "t", name: "Telegram", category: .share)
        let copy = SheetActivity(id: "c", name: "Copy Link", category: .action)
        #expect(SheetStrings(locale: "en").progress(for: telegram) == "Sending with Telegram…")
        #expect(SheetStrings(locale: "de").progress(for: telegram) == "Senden mit Telegram…")
        #expect(SheetStrings(locale: "en").progress(for: copy) == "Copy Link…")
    }

    @Test func theWindowTitleCarriesThePageTitle() {
        #expect(SheetStrings(locale: "en").windowTitle(pageTitle: "News") == "Share – News")
        #expect(SheetStrings(locale: "de").windowTitle(pageTitle: "") == "Teilen")
    }

    @Test func everyLanguageHasEveryString() {
        for language in SheetStrings.languages {
            let strings = SheetStrings(locale: language)
            let english = SheetStrings(locale: "en")
            for (text, base) in [
                (strings.share, english.share), (strings.actions, english.actions),
                (strings.cancel, english.cancel),
                (strings.close, english.close), (strings.noMatches, english.noMatches),
            ] {
                #expect(!text.isEmpty)
                if language != "en" { #expect(text != base, "\(language) translates '\(base)'") }
            }
        }
    }
}
