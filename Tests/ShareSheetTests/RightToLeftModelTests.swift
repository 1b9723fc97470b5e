// Right-to-left languages without a display: which locales are laid out right to left, and where Left and Right go there.
import Testing

@testable import ShareSheet

private func share(_ id: String) -> SheetActivity {
    SheetActivity(id: id, name: id, icon: "", category: .share)
}
private func action(_ id: String) -> SheetActivity {
    SheetActivity(id: id, name: id, icon: "", category: .action)
}

private func model(_ direction: SheetDirection) -> SheetModel {
    SheetModel(
        header: SheetHeader(title: "Page", url: "https://example.org/"),
        activities: [share("a"), share("b"), share("c"), action("x"), action("y")], direction: direction)
}

@Suite struct RightToLeftModelTests {
    @Test func rightToLeftLocales() {
        for locale in ["he_IL.UTF-8", "he", "iw_IL", "ar_EG.UTF-8", "ar", "fa-IR", "ur_PK", "yi_US", "ps_AF"]
        {
            #expect(SheetDirection(locale: locale) == .rightToLeft, "\(locale)")
        }
        for locale in ["en_US.UTF-8", "de_DE", "C", "POSIX", "", "hr_HR", "fr", "sd_IN@devanagari", "hi_IN"] {
            #expect(SheetDirection(locale: locale) == .leftToRight, "\(locale)")
        }
    }

    /// Hebrew has no table: English words, laid out right to left (as GTK apps are under a
    /// right-to-left locale whatever their own translations).
    @Test func theDirectionFollowsTheLanguageAskedForNotTheTableShown() {
        let hebrew = SheetStrings.choose(option: nil, environment: ["LANG": "he_IL.UTF-8"])
        #expect(hebrew.language == "en")
        #expect(hebrew.direction == .rightToLeft)
        #expect(
            SheetStrings.choose(option: "de_DE", environment: ["LANG": "he_IL.UTF-8"]).direction
                == .leftToRight)
        #expect(
            SheetStrings.choose(option: "ar", environment: ["LANG": "en_US.UTF-8"]).direction == .rightToLeft)
    }

    @Test func inARightToLeftRowLeftGoesToTheNextActivity() {
        var sheet = model(.rightToLeft)
        _ = sheet.press(.left)
        #expect(sheet.selectedID == "b")
        _ = sheet.press(.left)
        _ = sheet.press(.left)
        #expect(sheet.selectedID == "x", "Left walks on into the Actions list, as Right does left to right")
        _ = sheet.press(.right)
        _ = sheet.press(.right)
        _ = sheet.press(.right)
        _ = sheet.press(.right)
        #expect(sheet.selectedID == "a", "Right stops at the first activity, at the right edge")
    }

    @Test func leftToRightIsUnchanged() {
        var sheet = model(.leftToRight)
        _ = sheet.press(.right)
        #expect(sheet.selectedID == "b")
        _ = sheet.press(.left)
        _ = sheet.press(.left)
        #expect(sheet.selectedID == "a")
        #expect(model(.rightToLeft).direction == .rightToLeft)
    }

    @Test func tabAndTheVerticalKeysDoNotDependOnTheDirection() {
        for direction in [SheetDirection.leftToRight, .rightToLeft] {
            var sheet = model(direction)
            _ = sheet.press(.tab)
            #expect(sheet.selectedID == "b", "\(direction)")
            _ = sheet.press(.down)
            #expect(sheet.selectedID == "x", "\(direction)")
            _ = sheet.press(.up)
            #expect(sheet.selectedID == "b", "\(direction)")
        }
    }
}
