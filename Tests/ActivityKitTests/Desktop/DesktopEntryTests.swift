// Tests of the desktop entry parser: syntax, escapes, lists, localized lookup and errors with line numbers.
import Foundation
import Testing

@testable import ActivityKit

@Suite struct DesktopEntryTests {
    static let sample = """
        # A comment before the first group
        [Desktop Entry]
        Type=Application
        Name = Web Browser
        Name[de]=Webbrowser
        Name[de_DE]=Web-Browser
        Name[sr@latin]=Veb pregledač
        Name[sr_RS@latin]=Veb pregledač (RS)
        Comment=Line one\\nLine\\ttwo\\sspace\\\\back\\rcr

        Keywords=web;internet\\;net;;browser;
        Hidden=false

        [Desktop Action new-window]
        Name=New Window
        """

    @Test func groupsKeysAndValues() throws {
        let entry = try DesktopEntry(parsing: Self.sample, fileName: "browser.desktop")
        #expect(entry.groupNames == ["Desktop Entry", "Desktop Action new-window"])
        #expect(entry.string("Type") == "Application")
        #expect(entry.string("Name") == "Web Browser")  // spaces around '=' ignored
        #expect(entry.string("Name", group: "Desktop Action new-window") == "New Window")
        #expect(entry.string("Missing") == nil)
        #expect(try entry.boolean("Hidden") == false)
        #expect(entry.line(ofKey: "Type") == 3)
    }

    @Test func stringEscapes() throws {
        let entry = try DesktopEntry(parsing: Self.sample, fileName: "browser.desktop")
        #expect(entry.string("Comment") == "Line one\nLine\ttwo space\\back\rcr")
        #expect(entry.rawValue("Comment") == "Line one\\nLine\\ttwo\\sspace\\\\back\\rcr")
    }

    @Test func listsSplitOnUnescapedSemicolons() throws {
        let entry = try DesktopEntry(parsing: Self.sample, fileName: "browser.desktop")
        #expect(entry.strings("Keywords") == ["web", "internet;net", "browser"])
    }

    @Test(arguments: [
        ("de_DE.UTF-8", "Web-Browser"),
        ("de_AT", "Webbrowser"),
        ("de", "Webbrowser"),
        ("sr_RS.UTF-8@latin", "Veb pregledač (RS)"),
        ("sr_ME@latin", "Veb pregledač"),
        ("sr_RS", "Web Browser"),
        ("fr_FR", "Web Browser"),
        ("C", "Web Browser"),
    ])
    func localizedLookup(locale: String, expected: String) throws {
        let entry = try DesktopEntry(parsing: Self.sample, fileName: "browser.desktop")
        #expect(entry.localizedString("Name", locale: locale) == expected)
    }

    @Test func localizedValuesCollectsEveryTranslation() throws {
        let entry = try DesktopEntry(parsing: Self.sample, fileName: "browser.desktop")
        #expect(
            entry.localizedValues("Name") == [
                "de": "Webbrowser", "de_DE": "Web-Browser", "sr@latin": "Veb pregledač",
                "sr_RS@latin": "Veb pregledač (RS)",
            ])
    }

    @Test(arguments: [
        ("sr_YU.UTF-8@Latn", ["sr_YU@Latn", "sr@Latn", "sr_YU", "sr"]),  // GLib's order, as GIO uses
        ("de_DE", ["de_DE", "de"]),
        ("sr@Latn", ["sr@Latn", "sr"]),
        ("ja", ["ja"]),
        ("", []),
    ])
    func localeFallbackOrder(locale: String, expected: [String]) {
        #expect(DesktopEntry.localeFallbacks(locale) == expected)
    }

    @Test func crlfLineEndingsAndIndentedComments() throws {
        let text = "[Desktop Entry]\r\n  # indented comment\r\nName=A\r\nType=Application\r\n"
        let entry = try DesktopEntry(parsing: text, fileName: "crlf.desktop")
        #expect(entry.string("Name") == "A")
        #expect(entry.line(ofKey: "Type") == 4)
    }

    @Test(
        arguments: [
            ("[Desktop Entry]\nName=A\nName=B\n", 3, "duplicate key"),
            ("[Desktop Entry]\nName=A\n[Other]\nX=1\n[Other]\n", 5, "duplicate group"),
            ("# c\n[Other]\nName=A\n[Desktop Entry]\nName=B\n", 2, "first group"),
            ("Name=A\n[Desktop Entry]\n", 1, "before the first group"),
            ("[Desktop Entry]\nName=A\nthis line is junk\n", 3, "expected 'Key=Value'"),
            ("[Desktop Entry]\nName=A\n[Broken\n", 3, "must end with ']'"),
            ("[Desktop Entry]\nName=A\nBad_Key=1\n", 3, "invalid key name"),
            ("[Desktop Entry]\nName[]=A\n", 2, "invalid key name"),
        ] as [(String, Int, String)])
    func brokenFilesNameFileAndLine(text: String, line: Int, fragment: String) {
        #expect {
            try DesktopEntry(parsing: text, fileName: "broken.desktop")
        } throws: { error in
            guard let error = error as? DesktopEntryError else { return false }
            return error.line == line && error.fileName == "broken.desktop"
                && error.message.contains(fragment)
                && error.description.hasPrefix("broken.desktop:\(line): ")
        }
    }

    @Test func emptyFileHasNoMainGroup() {
        #expect(
            throws: DesktopEntryError(fileName: "e.desktop", line: nil, message: "no [Desktop Entry] group")
        ) {
            try DesktopEntry(parsing: "# only a comment\n", fileName: "e.desktop")
        }
    }

    @Test func invalidUTF8IsAnError() {
        #expect(throws: DesktopEntryError.self) {
            try DesktopEntry(data: [0x5B, 0xFF, 0xFE, 0x5D], fileName: "bad.desktop")
        }
    }

    @Test func booleanOtherThanTrueOrFalseNamesTheLine() throws {
        let entry = try DesktopEntry(
            parsing: "[Desktop Entry]\nName=A\nNoDisplay=yes\n", fileName: "b.desktop")
        #expect(throws: DesktopEntryError.self) { try entry.boolean("NoDisplay") }
        do {
            _ = try entry.boolean("NoDisplay")
        } catch {
            #expect(error.line == 3)
        }
    }
}
