// ActivityPickerModelTests: ordering, numbering, groups, navigation and digit choice, with a fake clock.

import Testing
@testable import TerminalUI

@Suite struct ActivityPickerModelTests {
    static let header = ActivityPickerHeader(title: "Example", url: "https://example.com/")

    /// Given mixed: two actions and three shares, interleaved.
    static func mixed() -> ActivityPickerModel {
        ActivityPickerModel(header: header, entries: [
            .init(id: "copy", title: "Copy Link", group: .action),
            .init(id: "telegram", title: "Telegram", glyph: "✈", group: .share),
            .init(id: "mail", title: "Mail", group: .share),
            .init(id: "browser", title: "Open in Browser", group: .action),
            .init(id: "matrix", title: "Matrix", group: .share),
        ])
    }

    static func many(_ count: Int) -> ActivityPickerModel {
        ActivityPickerModel(header: header, entries: (1...count).map {
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
        let model = ActivityPickerModel(header: Self.header, entries: [.init(id: "copy", title: "Copy", group: .action)])
        #expect(model.groups.map(\.group) == [.action])
    }

    @Test func upAndDownStopAtTheEnds() {
        var model = Self.mixed()
        #expect(model.handle(.up, now: 0) == nil)
        #expect(model.selection == 0)
        for _ in 0..<10 { _ = model.handle(.down, now: 0) }
        #expect(model.selection == 4)
        _ = model.handle(.up, now: 0)
        #expect(model.selection == 3)
        _ = model.handle(.character("k"), now: 0)
        _ = model.handle(.character("j"), now: 0)
        #expect(model.selection == 3)
    }

    @Test func tabWraps() {
        var model = Self.mixed()
        _ = model.handle(.backTab, now: 0)
        #expect(model.selection == 4)
        _ = model.handle(.tab, now: 0)
        #expect(model.selection == 0)
    }

    @Test func leftAndRightJumpBetweenGroups() {
        var model = Self.mixed()
        _ = model.handle(.down, now: 0)
        _ = model.handle(.right, now: 0)
        #expect(model.selection == 3)
        _ = model.handle(.right, now: 0)
        #expect(model.selection == 3)
        _ = model.handle(.down, now: 0)
        _ = model.handle(.left, now: 0)
        #expect(model.selection == 0)
        _ = model.handle(.left, now: 0)
        #expect(model.selection == 0)
    }

    @Test func homeEndPageKeys() {
        var model = Self.mixed()
        _ = model.handle(.end, now: 0)
        #expect(model.selection == 4)
        _ = model.handle(.home, now: 0)
        #expect(model.selection == 0)
        _ = model.handle(.pageDown, now: 0)
        #expect(model.selection == 4)
        _ = model.handle(.pageUp, now: 0)
        #expect(model.selection == 0)
    }

    @Test func enterChoosesTheHighlightedEntry() {
        var model = Self.mixed()
        _ = model.handle(.down, now: 0)
        _ = model.handle(.down, now: 0)
        _ = model.handle(.down, now: 0)
        #expect(model.handle(.enter, now: 0) == .chosen("copy"))
    }

    @Test(arguments: [Key.escape, .ctrlC, .ctrlD, .character("q"), .character("Q")])
    func cancelKeys(key: Key) {
        var model = Self.mixed()
        #expect(model.handle(key, now: 0) == .cancelled)
    }

    @Test func otherKeysAreIgnored() {
        var model = Self.mixed()
        for key: Key in [.character("x"), .insert, .delete, .backspace, .unknown([0xFF]), .control(1)] {
            #expect(model.handle(key, now: 0) == nil)
        }
        #expect(model.selection == 0)
    }

    @Test func digitsChooseAtOnceWithNineOrFewer() {
        var model = Self.mixed()
        #expect(model.handle(.character("4"), now: 0) == .chosen("copy"))
        var other = Self.mixed()
        #expect(other.handle(.character("0"), now: 0) == nil)
        #expect(other.handle(.character("6"), now: 0) == nil)
        #expect(other.pendingNumber == nil)
    }

    @Test func twoDigitNumbersWithinTheWindow() {
        var model = Self.many(12)
        #expect(model.handle(.character("1"), now: 10) == nil)
        #expect(model.selection == 0)
        #expect(model.pendingDeadline == 11)
        #expect(model.handle(.character("2"), now: 10.5) == .chosen("e12"))
    }

    @Test func firstDigitAloneAfterTheWindow() {
        var model = Self.many(12)
        _ = model.handle(.character("1"), now: 10)
        #expect(model.tick(now: 10.9) == nil)
        #expect(model.tick(now: 11) == .chosen("e1"))
    }

    @Test func enterConfirmsAPendingDigit() {
        var model = Self.many(12)
        _ = model.handle(.character("1"), now: 0)
        #expect(model.handle(.enter, now: 0.1) == .chosen("e1"))
    }

    @Test func digitsThatCannotStartTwoDigitNumbersChooseAtOnce() {
        var model = Self.many(12)
        #expect(model.handle(.character("2"), now: 0) == .chosen("e2"))
    }

    @Test func anInvalidSecondDigitStartsOver() {
        var model = Self.many(12)
        _ = model.handle(.character("1"), now: 0)
        // 15 does not exist: 5 is taken as a fresh first digit, which chooses at once.
        #expect(model.handle(.character("5"), now: 0.2) == .chosen("e5"))
    }

    @Test func arrowEndsTheDigitWait() {
        var model = Self.many(12)
        _ = model.handle(.character("1"), now: 0)
        _ = model.handle(.down, now: 0.1)
        #expect(model.pendingNumber == nil)
        #expect(model.selection == 1)
        #expect(model.tick(now: 5) == nil)
    }

    @Test func emptyModelOnlyCancels() {
        var model = ActivityPickerModel(header: Self.header, entries: [])
        #expect(model.handle(.enter, now: 0) == nil)
        #expect(model.handle(.down, now: 0) == nil)
        #expect(model.handle(.character("1"), now: 0) == nil)
        #expect(model.handle(.escape, now: 0) == .cancelled)
    }
}
