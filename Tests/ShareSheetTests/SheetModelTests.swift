// The sheet's model without a display: order, selection, keyboard moves, search and its life.
import Testing

@testable import ShareSheet

private func share(_ id: String, _ name: String? = nil) -> SheetActivity {
    SheetActivity(id: id, name: name ?? id, icon: "", category: .share)
}

private func action(_ id: String, _ name: String? = nil) -> SheetActivity {
    SheetActivity(id: id, name: name ?? id, icon: "", category: .action)
}

private func model(_ activities: [SheetActivity]) -> SheetModel {
    SheetModel(header: SheetHeader(title: "Page", url: "https://example.org/"), activities: activities)
}

/// Presses `keys` in order and returns every effect.
@discardableResult
private func press(_ model: inout SheetModel, _ keys: SheetKey...) -> [SheetEffect] {
    keys.flatMap { model.press($0) }
}

@Suite struct SheetModelTests {
    let standard = [
        share("telegram", "Telegram"), action("copy", "Copy Link"), share("mail", "Mail"),
        action("browser", "Open in Browser"), action("reading", "Add to Reading List"),
    ]

    @Test func sharesAreDrawnBeforeActionsEachInTheGivenOrder() {
        let sheet = model(standard)
        #expect(sheet.displayOrder.map(\.id) == ["telegram", "mail", "copy", "browser", "reading"])
        #expect(sheet.visibleShares.map(\.id) == ["telegram", "mail"])
        #expect(sheet.visibleActions.map(\.id) == ["copy", "browser", "reading"])
    }

    @Test func selectionStartsOnTheFirstGivenActivityEvenInTheActionsList() {
        #expect(model(standard).selectedID == "telegram")
        #expect(model([action("copy"), share("mail")]).selectedID == "copy")
    }

    @Test func enterChoosesTheSelectionAndTheSheetShowsProgress() {
        var sheet = model(standard)
        #expect(press(&sheet, .enter) == [.respond(.chosen(activityID: "telegram"))])
        #expect(sheet.phase == .running(standard[0]))
        #expect(press(&sheet, .enter).isEmpty, "a second Enter chooses nothing more")
    }

    @Test func spaceChoosesWhenNotSearching() {
        var sheet = model(standard)
        press(&sheet, .right)
        #expect(press(&sheet, .space) == [.respond(.chosen(activityID: "mail"))])
    }

    @Test func escapeCancelsAndClosesWhileChoosing() {
        var sheet = model(standard)
        #expect(press(&sheet, .escape) == [.respond(.cancelled), .closeWindow])
        #expect(sheet.phase == .closed)
        #expect(sheet.dismiss().isEmpty)
    }

    @Test func tabWrapsAroundTheDisplayOrder() {
        var sheet = model(standard)
        var seen: [String?] = []
        for _ in 0..<5 {
            press(&sheet, .tab)
            seen.append(sheet.selectedID)
        }
        #expect(seen == ["mail", "copy", "browser", "reading", "telegram"])
        press(&sheet, .shiftTab)
        #expect(sheet.selectedID == "reading")
    }

    @Test func arrowsStopAtTheEnds() {
        var sheet = model(standard)
        press(&sheet, .left)
        #expect(sheet.selectedID == "telegram")
        press(&sheet, .down, .down, .down, .down)
        #expect(sheet.selectedID == "reading")
    }

    @Test func downLeavesTheShareRowAndUpReturnsToWhereItWas() {
        var sheet = model(standard)
        press(&sheet, .right, .down)
        #expect(sheet.selectedID == "copy")
        press(&sheet, .down, .up)
        #expect(sheet.selectedID == "copy")
        press(&sheet, .up)
        #expect(sheet.selectedID == "mail", "back to the share entry left last")
        press(&sheet, .up)
        #expect(sheet.selectedID == "mail", "nothing above the Share row")
    }

    @Test func typingFiltersByNameIgnoringCaseAndAccents() {
        var sheet = model(standard + [share("cafe", "Café Chat")])
        press(&sheet, .character("O"), .character("P"), .character("E"))
        #expect(sheet.visible.map(\.id) == ["browser"])
        #expect(sheet.selectedID == "browser", "the selection moves to the first match")
        press(&sheet, .backspace, .backspace, .backspace)
        #expect(sheet.query.isEmpty)
        #expect(sheet.visible.count == 6)
        press(&sheet, .character("c"), .character("a"), .character("f"), .character("e"))
        #expect(sheet.visible.map(\.id) == ["cafe"])
    }

    @Test func selectionSurvivesASearchItStillMatches() {
        var sheet = model(standard)
        press(&sheet, .tab, .tab, .tab)
        #expect(sheet.selectedID == "browser")
        press(&sheet, .character("o"))
        #expect(sheet.selectedID == "browser")
    }

    @Test func spaceIsPartOfASearch() {
        var sheet = model(standard)
        press(
            &sheet, .character("r"), .character("e"), .character("a"), .character("d"), .space,
            .character("i"))
        #expect(sheet.query == "read i")
        #expect(sheet.visible.isEmpty)
        #expect(sheet.showsNoMatches)
        #expect(press(&sheet, .enter).isEmpty, "Enter with no match chooses nothing")
        press(&sheet, .backspace, .backspace)
        #expect(sheet.visible.map(\.id) == ["reading"])
        #expect(press(&sheet, .enter) == [.respond(.chosen(activityID: "reading"))])
    }

    @Test func clickingChoosesThatActivity() {
        var sheet = model(standard)
        #expect(sheet.choose("browser") == [.respond(.chosen(activityID: "browser"))])
        #expect(sheet.selectedID == "browser")
    }

    @Test func clickingAnUnknownOrHiddenActivityDoesNothing() {
        var sheet = model(standard)
        #expect(sheet.choose("nope").isEmpty)
        press(&sheet, .character("m"), .character("a"), .character("i"))
        #expect(sheet.choose("telegram").isEmpty)
        #expect(sheet.phase == .choosing)
    }

    @Test func completedAfterAChoiceClosesWithoutASecondReply() {
        var sheet = model(standard)
        press(&sheet, .enter)
        #expect(sheet.update(.running, message: "").isEmpty)
        #expect(sheet.update(.completed, message: "") == [.closeWindow])
        #expect(sheet.phase == .closed)
    }

    @Test func cancelledAfterAChoiceCloses() {
        var sheet = model(standard)
        press(&sheet, .enter)
        #expect(sheet.update(.cancelled, message: "") == [.closeWindow])
    }

    @Test func failedShowsTheMessageUntilTheUserCloses() {
        var sheet = model(standard)
        press(&sheet, .enter)
        #expect(sheet.update(.failed, message: "Telegram is not installed").isEmpty)
        #expect(sheet.phase == .failed(activity: standard[0], message: "Telegram is not installed"))
        #expect(sheet.update(.completed, message: "").isEmpty, "a failure is final")
        #expect(press(&sheet, .tab).isEmpty)
        #expect(press(&sheet, .enter) == [.closeWindow])
    }

    @Test func escapeWhileRunningOnlyClosesTheWindow() {
        var sheet = model(standard)
        press(&sheet, .enter)
        #expect(press(&sheet, .escape) == [.closeWindow])
    }

    @Test func brokerCloseWhileChoosingAnswersCancelled() {
        var sheet = model(standard)
        #expect(sheet.close() == [.respond(.cancelled), .closeWindow])
        #expect(sheet.close().isEmpty)
    }

    @Test func updatesBeforeAnyChoice() {
        var running = model(standard)
        #expect(running.update(.running, message: "").isEmpty)
        #expect(running.phase == .choosing)
        var completed = model(standard)
        #expect(completed.update(.completed, message: "") == [.respond(.cancelled), .closeWindow])
        var failed = model(standard)
        #expect(failed.update(.failed, message: "timed out") == [.respond(.failed(message: "timed out"))])
        #expect(failed.phase == .failed(activity: nil, message: "timed out"))
    }

    @Test func theSearchHasALimit() {
        var sheet = model(standard)
        for _ in 0..<(SheetModel.maximumQueryLength + 10) { press(&sheet, .character("x")) }
        #expect(sheet.query.count == SheetModel.maximumQueryLength)
    }
}
