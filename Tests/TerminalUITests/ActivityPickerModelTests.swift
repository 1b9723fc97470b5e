// ActivityPickerModelTests: ordering, numbering, groups, navigation and digit choice, with a fake clock.

import Testing

@testable import TerminalUI

@Suite struct ActivityPickerModelTests {
    static let header = ActivityPickerHeader(title: "Example", url: "https://example.com/")

    /// Given mixed: two actions and three shares, interleaved.
    static func mixed() -> ActivityPickerModel {
        ActivityPickerModel(
            header: header,
            entries: [
                .init(id: "copy", title: "Copy Link", group: .action),
                .init(id: "telegram", title: "Telegram", glyph: "✈", group: .share),
                .init(id: "mail", title: "Mail", group: .share),
                .init(id: "browser", title: "Open in Browser", group: .action),
                .init(id: "matrix", title: "Matrix", group: .share),
            ])
    }

    static func many(_ count: Int) -> ActivityPickerModel {
        ActivityPickerModel(
            header: header,
            entries: (1...count).map {
                .init(id: "e\($0)", title: "Entry \($0)", group: .share)
            })
    }

    @Test func sharesComeFirstAndOrderWithinGroupsIsKept() {
        let model = Self.mixed()
        #expect(model.entries.map(\.id) == ["telegram", "mail", "matrix", "copy", "browser"])
        #expect(model.groups.map(\.group) == [.share, .action])
        #expect(model.groups.map(\.range) == [0..<3, 3..<5])
        #expect((0..<5).map(model.number(of:)) == [1, 2, 3, 4, 5])
        #expect(model.selection == 0)
    }

    @Test func emptyGroupsAreLeftOut() {
        let model = ActivityPickerModel(
            header: Self.header, entries: [.init(id: "copy", title: "Copy", group: .action)])
        #expect(model.groups.map(\.group) == [.action])
    }

    @Test func upAndDownStopAtTheEnds() {
        var model = Self.mixed()
        #expect(model.handle(.up) == nil)
        #expect(model.selection == 0)
        for _ in 0..<10 { _ = model.handle(.down) }
        #expect(model.selection == 4)
        _ = model.handle(.up)
        #expect(model.selection == 3)
        _ = model.handle(.character("k"))
        _ = model.handle(.character("j"))
        #expect(model.selection == 3)
    }

    @Test func tabWraps() {
        var model = Self.mixed()
        _ = model.handle(.backTab)
        #expect(model.selection == 4)
        _ = model.handle(.tab)
        #expect(model.selection == 0)
    }

    @Test func leftAndRightJumpBetweenGroups() {
        var model = Self.mixed()
        _ = model.handle(.down)
        _ = model.handle(.right)
        #expect(model.selection == 3)
        _ = model.handle(.right)
        #expect(model.selection == 3)
        _ = model.handle(.down)
        _ = model.handle(.left)
        #expect(model.selection == 0)
        _ = model.handle(.left)
        #expect(model.selection == 0)
    }

    @Test func homeEndPageKeys() {
        var model = Self.mixed()
        _ = model.handle(.end)
        #expect(model.selection == 4)
        _ = model.handle(.home)
        #expect(model.selection == 0)
        _ = model.handle(.pageDown)
        #expect(model.selection == 4)
        _ = model.handle(.pageUp)
        #expect(model.selection == 0)
    }

    @Test func enterChoosesTheHighlightedEntry() {
        var model = Self.mixed()
        _ = model.handle(.down)
        _ = model.handle(.down)
        _ = model.handle(.down)
        #expect(model.handle(.enter) == .chosen("copy"))
    }

    @Test(arguments: [Key.escape, .ctrlC, .ctrlD, .character("q"), .character("Q")])
    func cancelKeys(key: Key) {
        var model = Self.mixed()
        #expect(model.handle(key) == .cancelled)
    }

    @Test func otherKeysAreIgnored() {
        var model = Self.mixed()
        for key: Key in [.character("x"), .insert, .delete, .backspace, .unknown([0xFF]), .control(1)] {
            #expect(model.handle(key) == nil)
        }
        #expect(model.selection == 0)
    }

    /// Regression (issue 13): `2` performed at once and `1` after a second; a digit typed into
    /// a terminal that still had a picker open shared a page. Digits only select.
    @Test func aDigitSelectsButNeverChooses() {
        var model = Self.mixed()
        #expect(model.handle(.character("4")) == nil)
        #expect(model.selection == 3)
        #expect(model.handle(.enter) == .chosen("copy"))
        var other = Self.mixed()
        #expect(other.handle(.character("0")) == nil)
        #expect(other.handle(.character("6")) == nil)
        #expect(other.selection == 0)
        #expect(other.typedNumber.isEmpty)
    }

    @Test func twoDigitsSelectATwoDigitNumber() {
        var model = Self.many(12)
        #expect(model.handle(.character("1")) == nil)
        #expect(model.selection == 0)
        #expect(model.handle(.character("2")) == nil)
        #expect(model.selection == 11)
        #expect(model.handle(.enter) == .chosen("e12"))
    }

    @Test func aDigitThatMakesNoNumberInRangeStartsOver() {
        var model = Self.many(12)
        _ = model.handle(.character("1"))
        // 15 does not exist: 5 starts a new number.
        #expect(model.handle(.character("5")) == nil)
        #expect(model.selection == 4)
        #expect(model.typedNumber == "5")
    }

    @Test func anotherKeyEndsTheNumber() {
        var model = Self.many(12)
        _ = model.handle(.character("1"))
        _ = model.handle(.down)
        #expect(model.typedNumber.isEmpty)
        #expect(model.selection == 1)
        _ = model.handle(.character("2"))
        #expect(model.selection == 1)
    }

    @Test func emptyModelOnlyCancels() {
        var model = ActivityPickerModel(header: Self.header, entries: [])
        #expect(model.handle(.enter) == nil)
        #expect(model.handle(.down) == nil)
        #expect(model.handle(.character("1")) == nil)
        #expect(model.handle(.escape) == .cancelled)
    }
}
