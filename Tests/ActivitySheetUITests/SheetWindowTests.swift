// activity-sheet end to end under Xvfb: activated on a private bus, driven by keys, read through AT-SPI.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// The offered list most tests show: two shares, then two actions.
private let standardActivities = [
    SheetFixture.activity("org.telegram.desktop", "Telegram", "share", icon: "telegram"),
    SheetFixture.activity("builtin.mail", "Mail", "share", icon: "mail-send"),
    SheetFixture.activity("builtin.copy-link", "Copy Link", "action", icon: "edit-copy"),
    SheetFixture.activity("builtin.open-in-browser", "Open in Browser", "action", icon: "web-browser"),
]

private func response(_ reply: [Value]) -> (code: UInt32?, results: [String: Value]) {
    (reply.first?.uint32, reply.count > 1 ? reply[1].vardict ?? [:] : [:])
}

/// Shows the standard activities at `handle`, waits for the sheet's window, then closes it as
/// the broker does: the sheet's pid and its answer's code.
private func showAndCloseAsTheBroker(
    _ fixture: SheetFixture, handle: String = "/org/activitybroker/Broker1/sheet/1"
) async throws -> (pid: UInt32, code: UInt32?) {
    let reply = fixture.show(SheetFixture.showBody(handle: handle, activities: standardActivities))
    let pid = try await fixture.sheetPID()
    _ = try await fixture.window(pid: pid)
    try await fixture.call(Sheet1.close, [.objectPath(ObjectPath(stringLiteral: handle))])
    return (pid, response(try await reply.value).code)
}

/// One window per test, one test at a time: each starts its own X server and bus, and the
/// machine's two cores are shared.
@Suite(.serialized) struct SheetWindowTests {
    @Test func showListsTheActivitiesInOrderAndEnterChoosesTheFirst() async throws {
        let fixture = try await SheetFixture()
        let reply = fixture.show(SheetFixture.showBody(activities: standardActivities))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        #expect(try await fixture.title(window: window) == "Share – Today's News")

        let tree = try await fixture.waitForTree(pid: pid, "the four activities") {
            SheetFixture.buttons($0).contains("Open in Browser")
        }
        // The header bar (Cancel) comes last in GTK's tree.
        #expect(SheetFixture.buttons(tree) == ["Telegram", "Mail", "Copy Link", "Open in Browser", "Cancel"])
        #expect(tree.contains("label\tToday's News"))
        #expect(tree.contains("label\tFrom Example Reader"), "the calling app, from its desktop entry")

        try await fixture.tool("xdotool", ["windowfocus", "--sync", window])
        let focusedTree = try await fixture.waitForTree(pid: pid, "the focus") {
            SheetFixture.focused($0) != nil
        }
        #expect(SheetFixture.focused(focusedTree) == "Telegram", "focus starts on the first offered activity")

        try await fixture.press("Return", window: window)
        let (code, results) = response(try await reply.value)
        #expect(code == Sheet1.Response.chosen.rawValue)
        #expect(results[Sheet1.ShowResultKey.activityID] == .string("org.telegram.desktop"))
        let token = results[Sheet1.ShowResultKey.activationToken]?.string ?? ""
        #expect(token.contains("_TIME"), "an X11 startup id: \(token)")

        // The sheet stays open with the progress line until the broker reports.
        try await fixture.call(
            Sheet1.update,
            [.objectPath("/org/activitybroker/Broker1/sheet/1"), .string("running"), .string("")])
        _ = try await fixture.waitForTree(pid: pid, "the progress line") {
            $0.contains("label\tSending with Telegram…")
        }
        try await fixture.call(
            Sheet1.update,
            [.objectPath("/org/activitybroker/Broker1/sheet/1"), .string("completed"), .string("")])
        try await waitUntil("the window to close", interval: .milliseconds(50)) {
            !(try await fixture.hasVisibleWindow(pid: pid))
        }
    }

    @Test func arrowKeysMoveAndEnterChoosesWhatHasTheFocus() async throws {
        let fixture = try await SheetFixture()
        let reply = fixture.show(SheetFixture.showBody(activities: standardActivities))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        _ = try await fixture.waitForTree(pid: pid, "the activities") {
            SheetFixture.buttons($0).contains("Mail")
        }
        try await fixture.press("Right", "Down", "Down", "Return", window: window)
        let (code, results) = response(try await reply.value)
        #expect(code == Sheet1.Response.chosen.rawValue)
        #expect(results[Sheet1.ShowResultKey.activityID] == .string("builtin.open-in-browser"))
    }

    @Test func escapeAnswersCancelledAndClosesTheWindow() async throws {
        let fixture = try await SheetFixture()
        let reply = fixture.show(SheetFixture.showBody(activities: standardActivities))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        try await fixture.press("Escape", window: window)
        #expect(response(try await reply.value).code == Sheet1.Response.cancelled.rawValue)
        try await waitUntil("the window to close", interval: .milliseconds(50)) {
            !(try await fixture.hasVisibleWindow(pid: pid))
        }
    }

    @Test func typingFiltersTheListAndEnterChoosesTheMatch() async throws {
        let fixture = try await SheetFixture()
        let reply = fixture.show(SheetFixture.showBody(activities: standardActivities))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        _ = try await fixture.waitForTree(pid: pid, "the activities") {
            SheetFixture.buttons($0).contains("Mail")
        }
        try await fixture.type("copy", window: window)
        let tree = try await fixture.waitForTree(pid: pid, "only Copy Link") {
            SheetFixture.buttons($0) == ["Copy Link", "Cancel"]
        }
        #expect(!tree.contains("push button\tTelegram"))
        try await fixture.press("Return", window: window)
        #expect(
            response(try await reply.value).results[Sheet1.ShowResultKey.activityID]
                == .string("builtin.copy-link"))
    }

    @Test func aFailureShowsItsMessageUntilTheUserClosesIt() async throws {
        let fixture = try await SheetFixture()
        let handle: Value = .objectPath("/org/activitybroker/Broker1/sheet/1")
        let reply = fixture.show(SheetFixture.showBody(activities: standardActivities))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        try await fixture.press("Return", window: window)
        #expect(response(try await reply.value).code == Sheet1.Response.chosen.rawValue)
        try await fixture.call(Sheet1.update, [handle, .string("running"), .string("")])
        try await fixture.call(
            Sheet1.update,
            [handle, .string("failed"), .string("Telegram is not installed on this computer.")])
        let tree = try await fixture.waitForTree(pid: pid, "the failure message") {
            $0.contains("label\tTelegram is not installed on this computer.")
        }
        #expect(tree.contains("label\tTelegram did not finish"))
        #expect(SheetFixture.buttons(tree) == ["Close"])
        #expect(try await fixture.hasVisibleWindow(pid: pid), "the message stays")
        try await fixture.press("Return", window: window)
        try await waitUntil("the window to close", interval: .milliseconds(50)) {
            !(try await fixture.hasVisibleWindow(pid: pid))
        }
    }

    @Test func closeFromTheBrokerAnswersCancelledAndClosesTheWindow() async throws {
        let fixture = try await SheetFixture()
        let (pid, code) = try await showAndCloseAsTheBroker(fixture)
        #expect(code == Sheet1.Response.cancelled.rawValue)
        try await waitUntil("the window to close", interval: .milliseconds(50)) {
            !(try await fixture.hasVisibleWindow(pid: pid))
        }
        // Closing again is harmless: the user may have closed it first.
        try await fixture.call(Sheet1.close, [.objectPath("/org/activitybroker/Broker1/sheet/1")])
    }

    /// A broker replaced while its sheet was open leaves after its successor showed one: the
    /// old broker's sheet closes, the new one's stays (before, every sheet closed).
    @Test func aBrokerThatLeavesClosesOnlyItsOwnSheet() async throws {
        let fixture = try await SheetFixture()
        let display = fixture.display
        let old = fixture.show(SheetFixture.showBody(handle: "/old/sheet/1", activities: standardActivities))
        let pid = try await fixture.sheetPID()
        let oldWindow = try await fixture.window(pid: pid)
        // The old broker gives its name up, still connected; a new one takes it and shows a sheet.
        try await fixture.broker.releaseName(Broker1.busName)
        let successor = try fixture.bus.connect()
        defer { successor.close() }
        #expect(try await successor.requestName(Broker1.busName, flags: .doNotQueue) == .primaryOwner)
        let new = fixture.show(
            SheetFixture.showBody(handle: "/new/sheet/1", activities: standardActivities), from: successor)
        var newWindow = ""
        try await waitUntil("the second sheet", interval: .milliseconds(50)) {
            newWindow = try await display.visibleWindows(pid: pid).first { $0 != oldWindow } ?? ""
            return !newWindow.isEmpty
        }
        fixture.broker.close()
        _ = await old.result
        try await waitUntil("the old broker's sheet to close", interval: .milliseconds(50)) {
            !(try await display.visibleWindows(pid: pid).contains(oldWindow))
        }
        // The sheet service's main thread has run the close by now; an Update answered from there
        // comes after it. The successor's sheet is still open and answers its own Close.
        try await fixture.call(Sheet1.update, [.objectPath("/new/sheet/1"), .string("running"), .string("")], from: successor)
        #expect(try await display.visibleWindows(pid: pid).contains(newWindow))
        try await fixture.call(Sheet1.close, [.objectPath("/new/sheet/1")], from: successor)
        #expect(response(try await new.value).code == Sheet1.Response.cancelled.rawValue)
    }

    /// The idle exit, end to end: a second after its last sheet closed the service leaves the
    /// bus (only once nothing is on its way in: `BrokerCallers.exitIfIdle`), and the next
    /// `Show` starts it again.
    @Test func theServiceExitsWhenIdleAndTheNextShowStartsItAgain() async throws {
        let fixture = try await SheetFixture(idleExit: 1)
        let (pid, code) = try await showAndCloseAsTheBroker(fixture)
        #expect(code == Sheet1.Response.cancelled.rawValue)
        try await waitUntil("the idle service to leave the bus", interval: .milliseconds(50)) {
            (try? await fixture.broker.unixProcessID(of: Sheet1.busName.rawValue)) == nil
        }
        let (again, secondCode) = try await showAndCloseAsTheBroker(
            fixture, handle: "/org/activitybroker/Broker1/sheet/2")
        #expect(again != pid)
        #expect(secondCode == Sheet1.Response.cancelled.rawValue)
    }

    @Test func aCallerThatIsNotTheBrokerIsRefused() async throws {
        let fixture = try await SheetFixture()
        let stranger = try fixture.bus.connect()
        defer { stranger.close() }
        let body = SheetFixture.showBody(activities: standardActivities)
        await #expect(throws: DBusError.self) { try await fixture.show(body, from: stranger).value }
        do {
            _ = try await fixture.show(body, from: stranger).value
        } catch let error as DBusError {
            #expect(error.name == BrokerErrorName.accessDenied.rawValue)
        }
        for (member, arguments) in [
            (Sheet1.update, [Value.objectPath("/h"), .string("failed"), .string("x")]),
            (Sheet1.close, [Value.objectPath("/h")]),
        ] {
            do {
                try await fixture.call(member, arguments, from: stranger)
                Issue.record("\(member) from a stranger succeeded")
            } catch {
                #expect(error.name == BrokerErrorName.accessDenied.rawValue)
            }
        }
        let pid = try await fixture.sheetPID()
        #expect(!(try await fixture.hasVisibleWindow(pid: pid)), "no window for a stranger")
    }

    @Test func badArgumentsAreInvalidArgs() async throws {
        let fixture = try await SheetFixture()
        do {
            _ = try await fixture.show(SheetFixture.showBody(activities: [])).value
            Issue.record("Show with no activities succeeded")
        } catch let error as DBusError {
            #expect(error.name == DBusError.invalidArgsName)
        }
        do {
            try await fixture.call(Sheet1.update, [.objectPath("/h"), .string("exploded"), .string("")])
            Issue.record("Update with an unknown state succeeded")
        } catch {
            #expect(error.name == DBusError.invalidArgsName)
        }
    }

    @Test func theSheetIsTransientForItsX11Parent() async throws {
        let fixture = try await SheetFixture()
        _ = fixture.show(
            SheetFixture.showBody(handle: "/s/1", title: "Parent", activities: standardActivities))
        let pid = try await fixture.sheetPID()
        let parent = try await fixture.window(pid: pid)
        let parentHex = String(UInt(parent) ?? 0, radix: 16)
        _ = fixture.show(
            SheetFixture.showBody(
                handle: "/s/2", title: "Child", activities: standardActivities, parent: "x11:\(parentHex)"))
        var child = ""
        try await waitUntil("the child window", interval: .milliseconds(50)) {
            let run = try await ChildProcess.run(
                "xdotool", ["search", "--onlyvisible", "--pid", "\(pid)"],
                environment: fixture.toolEnvironment)
            child = run.standardOutput.split(separator: "\n").map(String.init).first { $0 != parent } ?? ""
            return !child.isEmpty
        }
        #expect(try await fixture.title(window: child) == "Share – Child")
        var hint = ""
        try await waitUntil(
            "WM_TRANSIENT_FOR on the child", interval: .milliseconds(50)
        ) {
            hint = try await fixture.tool("xprop", ["-id", child, "WM_TRANSIENT_FOR"])
            return hint.contains("0x\(parentHex)")
        }
        #expect(hint.contains("window id # 0x\(parentHex)"), "\(hint)")
        print(fixture.bus.daemonOutput)
    }
}
