// Issue 15's acceptance: an app calls Broker1.Share on the real broker; the activated activity-sheet shows, is driven by keys, read through AT-SPI.
import ActivityBrokerClient
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Everything real: Xvfb, a private bus, the built `activity-broker` (a graphical session:
/// `DISPLAY` set) and the built `activity-sheet` started by D-Bus activation when the broker
/// calls `Show`. The test is only the app (`BrokerProxy.share`), the user (xdotool keys) and a
/// screen reader (AT-SPI). One world per test, one test at a time (two shared cores).
@Suite(.serialized, .timeLimit(.minutes(3))) struct ShareEndToEndTests {
    @Test func theSheetListsTheOfferedActivitiesAndEnterPerformsTheFirst() async throws {
        let world = try await ShareWorld()
        let offered = try await world.client.activities(for: ShareWorld.items)
        #expect(offered.map(\.id) == ["test.open", "test.mail", "test.fails", "test.copy"])

        let (job, outcome) = try await world.share()
        #expect(job.rawValue.hasPrefix("/org/activitybroker/Broker1/job/"))
        let pid = try await world.fixture.sheetPID()
        let window = try await world.sheetWindow(pid: pid)
        let tree = try await world.fixture.waitForTree(pid: pid, "the offered activities") {
            SheetFixture.buttons($0).contains("Cancel")
        }
        #expect(
            SheetFixture.buttons(tree) == ShareWorld.expectedButtons(offered),
            "exactly what ListActivities offers the same app, in its order")
        #expect(tree.contains("label\tToday's News"))
        #expect(world.harness.opened.isEmpty, "nothing is performed before a choice")

        try await world.fixture.press("Return", window: window)
        let end = try await outcome.value
        #expect(end.state == .completed)
        #expect(end.activityID == "test.open", "Enter chooses the first offered activity")
        try await waitUntil("the recording opener to run") {
            world.harness.opened == [ShareWorld.openedURL]
        }
        // Completed: the sheet closes by itself.
        try await waitUntil("the sheet to close", interval: .milliseconds(50)) {
            !(try await world.fixture.hasVisibleWindow(pid: pid))
        }
    }

    @Test func escapeCancelsTheShareAndPerformsNothing() async throws {
        let world = try await ShareWorld()
        let (_, outcome) = try await world.share()
        let pid = try await world.fixture.sheetPID()
        let window = try await world.sheetWindow(pid: pid)
        _ = try await world.fixture.waitForTree(pid: pid, "the offered activities") {
            SheetFixture.buttons($0).contains("Open Share")
        }
        try await world.fixture.press("Escape", window: window)
        let end = try await outcome.value
        #expect(end.state == .cancelled)
        #expect(end.activityID == nil)
        try await waitUntil("the sheet to close", interval: .milliseconds(50)) {
            !(try await world.fixture.hasVisibleWindow(pid: pid))
        }
        #expect(world.harness.opened.isEmpty)
    }

    @Test func aFailingActivityShowsItsMessageInTheSheetAndFailsTheJob() async throws {
        let world = try await ShareWorld()
        // Without the two shares, the failing exec (exit 4) is offered first.
        let (_, outcome) = try await world.share(options: ShareOptions(exclude: ["test.open", "test.mail"]))
        let pid = try await world.fixture.sheetPID()
        let window = try await world.sheetWindow(pid: pid)
        let tree = try await world.fixture.waitForTree(pid: pid, "the two actions") {
            SheetFixture.buttons($0).contains("Cancel")
        }
        #expect(SheetFixture.buttons(tree) == ["Failing Upload", "Copy It", "Cancel"], "exclude applied")

        try await world.fixture.press("Return", window: window)
        let end = try await outcome.value
        #expect(end.state == .failed)
        #expect(end.activityID == "test.fails")
        let message = try #require(end.message)
        #expect(message.contains("4"), "the exit status is in the reason: \(message)")
        let failed = try await world.fixture.waitForTree(pid: pid, "the failure message") {
            $0.contains("label\t\(message)")
        }
        #expect(SheetFixture.buttons(failed).contains("Close"), "the message stays until the user closes it")
        #expect(try await world.fixture.hasVisibleWindow(pid: pid))
    }

    @Test func killingTheSheetMidChoiceFailsTheJobAndTheBrokerServesOn() async throws {
        let world = try await ShareWorld()
        let (_, outcome) = try await world.share()
        let pid = try await world.fixture.sheetPID()
        _ = try await world.sheetWindow(pid: pid)
        _ = try await world.fixture.waitForTree(pid: pid, "the offered activities") {
            SheetFixture.buttons($0).contains("Open Share")
        }
        #expect(kill(pid_t(pid), SIGKILL) == 0)
        let end = try await outcome.value
        #expect(end.state == .failed)
        let message = try #require(end.message)
        #expect(message.contains("share sheet"), "the reason names the sheet: \(message)")
        #expect(world.harness.opened.isEmpty)

        // The broker is still there, and the next Share activates a new sheet.
        #expect(world.harness.broker.termination == nil)
        #expect(try await world.client.activities(for: ShareWorld.items).count == 4)
        let (_, again) = try await world.share()
        let newPID = try await world.fixture.sheetPID()
        #expect(newPID != pid)
        let window = try await world.sheetWindow(pid: newPID)
        _ = try await world.fixture.waitForTree(pid: newPID, "the offered activities") {
            SheetFixture.buttons($0).contains("Open Share")
        }
        try await world.fixture.press("Escape", window: window)
        #expect(try await again.value.state == .cancelled)
    }

    @Test func anOwnerActivityIsInItsAppsSheetAndInNoOneElsesList() async throws {
        let world = try await ShareWorld()
        let appConnection = try world.fixture.bus.connect()
        let app = BrokerProxy(connection: appConnection, address: world.fixture.bus.address)
        let performed = Inbox<String>()
        let provider = ActivityProvider(connection: appConnection)
        try await provider.start([
            ProvidedActivity(
                id: "org.example.Reader.save", name: "Save to Reader", category: "share", visibility: .owner
            ) { request in
                performed.put(request.items.url)
                return .completed
            }
        ])

        let others = try await world.client.activities(for: ShareWorld.items)
        #expect(!others.map(\.id).contains("org.example.Reader.save"), "another app never sees it")
        #expect(others.count == 4)

        let (_, outcome) = try await world.share(from: app)
        let pid = try await world.fixture.sheetPID()
        let window = try await world.sheetWindow(pid: pid)
        let tree = try await world.fixture.waitForTree(pid: pid, "the app's sheet") {
            SheetFixture.buttons($0).contains("Cancel")
        }
        let buttons = SheetFixture.buttons(tree)
        #expect(buttons.contains("Save to Reader"), "its own activity is in its own sheet")
        #expect(Set(buttons) == Set(ShareWorld.expectedButtons(others) + ["Save to Reader"]))

        try await world.fixture.type("Save", window: window)
        _ = try await world.fixture.waitForTree(pid: pid, "only Save to Reader") {
            SheetFixture.buttons($0) == ["Save to Reader", "Cancel"]
        }
        try await world.fixture.press("Return", window: window)
        let end = try await outcome.value
        #expect(end.state == .completed)
        #expect(end.activityID == "org.example.Reader.save")
        #expect(try await performed.next("the app's handler") == ShareWorld.items.url)
        await provider.close()
    }
}
