// Broker1.Share against a recording sheet service: choice, dismissal, crash, hang, disconnect, Cancel.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

@testable import ActivityBroker

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Broker1.Share")
struct ShareTests {
    static let url = "https://example.org/shared-page"
    static let items: [String: Value] = ["url": .string(url), "title": .string("A page title")]
    static let jobInterface = BrokerFixture.jobInterface

    /// A broker in a graphical session (DISPLAY set; it draws nothing) with an `open`
    /// activity, a slow one, one that records its activation token and one that fails.
    static func start(display: Bool = true, serviceDirectory: Bool = false, arguments: [String] = []) async throws
        -> BrokerFixture
    {
        let f = try await BrokerFixture(start: false, serviceDirectory: serviceDirectory)
        if display { f.extraEnvironment.withLock { $0["DISPLAY"] = ":77" } }
        try f.write(
            TestManifest.json(
                id: "org.test.open", name: "Open Share", perform: #"{"open": "https://share.example/?u={url}"}"#,
                priority: 5),
            to: "builtin/open.json")
        try f.write(
            TestManifest.json(id: "org.test.slow", category: "action", perform: TestManifest.exec(["sleep", "120"])),
            to: "builtin/slow.json")
        try f.write(
            TestManifest.json(
                id: "org.test.token", category: "action",
                perform: TestManifest.exec(["/bin/sh", "-c", "printf %s \"$XDG_ACTIVATION_TOKEN\" > \(f.output("token"))"])),
            to: "builtin/token.json")
        try f.write(
            TestManifest.json(id: "org.test.fails", category: "action", perform: TestManifest.exec(["false"])),
            to: "builtin/fails.json")
        try await f.startBroker(arguments: arguments)
        f.sharedItems.withLock { $0.formUnion([url, "A page title"]) }
        return f
    }

    /// `Share` from `connection` (default: the fixture's client); the job's path.
    static func share(
        _ f: BrokerFixture, parent: String = "", items: [String: Value] = items, options: [String: Value] = [:],
        on connection: Connection? = nil
    ) async throws -> ObjectPath {
        let reply = try await f.call("Share", [.string(parent), .vardict(items), .vardict(options)], on: connection)
        guard let path = reply.first?.objectPath else { throw DBusError.failed("Share returned \(reply)") }
        return path
    }

    /// The error name `Share` fails with, nil if it returns a job.
    static func shareError(
        _ f: BrokerFixture, parent: String = "", items: [String: Value] = items, options: [String: Value] = [:],
        on connection: Connection? = nil
    ) async -> String? {
        await f.errorName("Share", [.string(parent), .vardict(items), .vardict(options)], on: connection)
    }

    static func property(_ f: BrokerFixture, _ job: ObjectPath, _ name: String, on connection: Connection? = nil)
        async throws -> Value
    {
        try await f.property(name, path: job, interface: jobInterface, on: connection)
    }

    static func update(_ handle: ObjectPath, _ state: String, _ message: String = "") -> RecordingSheet.Call {
        RecordingSheet.Call(member: "Update", handle: handle, state: state, message: message)
    }

    static func close(_ handle: ObjectPath) -> RecordingSheet.Call {
        RecordingSheet.Call(member: "Close", handle: handle, state: "", message: "")
    }

    @Test("A choice is performed: choosing → running → completed, Finished carries activity_id, the sheet hears running then completed")
    func chosenActivityIsPerformed() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let finished = f.finishedSignals()
        try await f.settle()
        let offered = try await f.offered(Self.url)

        let job = try await Self.share(f)
        #expect(job.rawValue.hasPrefix("/org/activitybroker/Broker1/job/"))
        #expect(try await Self.property(f, job, "State") == .string("choosing"))
        #expect(try await Self.property(f, job, "ActivityId") == .string(""))

        let show = try await sheet.shows.next("Show")
        #expect(show.activityIDs == offered, "the sheet offers what ListActivities offers the caller, in order")
        #expect(show.items["url"] == .string(Self.url))
        #expect(show.items["title"] == .string("A page title"))
        #expect(show.parentWindow == "")
        #expect(show.appID == CallerApplication.id(ofProcess: UInt32(getpid())), "the caller is this test process")
        #expect(show.handle.rawValue.hasPrefix("/org/activitybroker/Broker1/request/"))
        #expect(show.activities.first?["name"] == .string("Open Share"))
        show.choose("org.test.open")

        let end = try await f.finished(job, in: finished)
        #expect(end.state == "completed")
        #expect(end.results["activity_id"] == .string("org.test.open"))
        try await waitUntil("the opener to run") { f.read(f.opened) != nil }
        #expect(f.read(f.opened)?.contains("https://share.example/?u=https%3A%2F%2Fexample.org%2Fshared-page") == true)
        try await sheet.waitForCalls([Self.update(show.handle, "running"), Self.update(show.handle, "completed")])
        #expect(try await Self.property(f, job, "State") == .string("completed"))
        #expect(try await Self.property(f, job, "ActivityId") == .string("org.test.open"))
    }

    @Test("The sheet's activation token reaches the chosen activity as XDG_ACTIVATION_TOKEN")
    func sheetActivationTokenReachesTheActivity() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f, options: ["activation_token": .string("caller-token")])
        let show = try await sheet.shows.next("Show")
        #expect(show.options["activation_token"] == .string("caller-token"), "the caller's token lets the sheet take focus")
        show.choose("org.test.token", token: "token-from-the-sheet")
        #expect(try await f.finished(job, in: finished).state == "completed")
        #expect(f.read(f.output("token")) == "token-from-the-sheet")
    }

    @Test("A sheet answering an activation token over 4 KiB fails the job with ProviderFailed; nothing is performed")
    func oversizedSheetTokenFailsTheJob() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f)
        let show = try await sheet.shows.next("Show")
        show.choose("org.test.token", token: String(repeating: "t", count: 4097))
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "failed")
        #expect(end.results["error"] == .string(BrokerFixture.errorPrefix + "ProviderFailed"), "\(end.results)")
        #expect(end.results["message"]?.string?.contains("activation_token") == true, "\(end.results)")
        #expect(f.read(f.output("token")) == nil)
    }

    @Test("Dismissing the sheet finishes the job cancelled; nothing is performed")
    func dismissedSheetCancelsTheJob() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f)
        let show = try await sheet.shows.next("Show")
        show.dismiss()
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "cancelled")
        #expect(end.results["activity_id"] == nil)
        #expect(try await Self.property(f, job, "State") == .string("cancelled"))
        try await f.settle()
        #expect(f.read(f.opened) == nil)
        #expect(sheet.calls.items.isEmpty, "a sheet the user dismissed is not told anything more")
    }

    @Test("A sheet that drops off the bus mid-choice fails the job with its D-Bus error; the broker keeps serving")
    func sheetCrashFailsTheJob() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f)
        _ = try await sheet.shows.next("Show")
        sheet.close()
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "failed")
        #expect(end.results["error"] == .string(DBusError.noReplyName))
        let message = end.results["message"]?.string ?? ""
        #expect(message.contains("share sheet"), "\(message)")
        try await f.settle()
        #expect(try await f.offered(Self.url).contains("org.test.open"))
    }

    @Test("A sheet that never answers is closed when the job's timeout ends the choosing: Timeout")
    func hangingSheetTimesOut() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f, options: ["timeout": .uint32(1)])
        let show = try await sheet.shows.next("Show")
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "failed")
        #expect(end.results["error"] == .string(BrokerFixture.errorPrefix + "Timeout"))
        try await sheet.waitForCalls([Self.close(show.handle)])
        // Answering after the end changes nothing: no second Finished, nothing performed.
        show.choose("org.test.open")
        try await f.settle()
        #expect(finished.items.filter { $0.path == job }.count == 1)
        #expect(f.read(f.opened) == nil)
    }

    @Test("A caller that leaves while the sheet is open closes the sheet")
    func callerDisconnectClosesTheSheet() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let caller = try f.bus.connect()
        _ = try await Self.share(f, on: caller)
        let show = try await sheet.shows.next("Show")
        caller.close()
        try await sheet.waitForCalls([Self.close(show.handle)])
        // Logged before the Close was sent, but the log comes through a pipe read on a thread
        // of its own and the Close through the bus: either may arrive first.
        try await waitUntil("the caller's leaving logged") { f.log.contains("its caller left") }
    }

    @Test("Cancel closes an open sheet and finishes the job cancelled; only the caller may")
    func cancelClosesTheSheet() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let stranger = try f.bus.connect()
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f)
        let show = try await sheet.shows.next("Show")
        #expect(
            await f.errorName("Cancel", on: stranger, path: job, interface: Self.jobInterface)
                == BrokerFixture.errorPrefix + "AccessDenied")
        try await f.call("Cancel", path: job, interface: Self.jobInterface)
        #expect(try await f.finished(job, in: finished).state == "cancelled")
        try await sheet.waitForCalls([Self.close(show.handle)])
    }

    @Test("SIGTERM with a sheet open: the caller gets Finished(cancelled), the sheet gets Close, the broker exits 0")
    func shutdownClosesAnOpenSheet() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f)
        let show = try await sheet.shows.next("Show")
        #expect(try await f.stopBroker() == .exited(0))
        #expect(try await f.finished(job, in: finished).state == "cancelled")
        try await sheet.waitForCalls([Self.close(show.handle)])
    }

    @Test("Cancel after the choice cancels the running activity; the sheet hears cancelled")
    func cancelWhileRunning() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f)
        let show = try await sheet.shows.next("Show")
        show.choose("org.test.slow")
        try await sheet.waitForCalls([Self.update(show.handle, "running")])
        #expect(try await Self.property(f, job, "State") == .string("running"))
        try await f.call("Cancel", path: job, interface: Self.jobInterface)
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "cancelled")
        #expect(end.results["activity_id"] == .string("org.test.slow"))
        try await sheet.waitForCalls([Self.update(show.handle, "running"), Self.update(show.handle, "cancelled")])
    }

    @Test("A failing choice: the sheet hears failed with the message; Finished says failed with activity_id")
    func failingChoice() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f)
        let show = try await sheet.shows.next("Show")
        show.choose("org.test.fails")
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "failed")
        #expect(end.results["activity_id"] == .string("org.test.fails"))
        let message = end.results["message"]?.string ?? ""
        #expect(!message.isEmpty)
        try await sheet.waitForCalls([Self.update(show.handle, "running"), Self.update(show.handle, "failed", message)])
    }

    @Test("A sheet that answers failed (2) fails the job with its message")
    func sheetFailureFailsTheJob() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f)
        try await sheet.shows.next("Show").fail("no display to show on")
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "failed")
        #expect(end.results["error"] == .string(BrokerFixture.errorPrefix + "ProviderFailed"))
        let message = end.results["message"]?.string ?? ""
        #expect(message.contains("no display to show on"), "\(message)")
    }

    @Test("A choice the broker did not offer fails the job and performs nothing")
    func choiceNotOfferedFails() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f, options: ["exclude": .stringArray(["org.test.open"])])
        let show = try await sheet.shows.next("Show")
        #expect(!show.activityIDs.contains("org.test.open"), "exclude applies to the sheet")
        show.choose("org.test.open")
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "failed")
        #expect(end.results["error"] == .string(BrokerFixture.errorPrefix + "ProviderFailed"))
        #expect(f.read(f.opened) == nil)
        try await sheet.waitForCalls([Self.update(show.handle, "failed", end.results["message"]?.string ?? "")])
    }

    @Test("Errors before any job: Unavailable without a sheet service, NotApplicable, InvalidArgument")
    func errorsBeforeAnyJob() async throws {
        let f = try await Self.start()
        let error = BrokerFixture.errorPrefix
        #expect(await Self.shareError(f) == error + "Unavailable", "no org.activitybroker.Sheet on the bus")
        let sheet = try await RecordingSheet(bus: f.bus)
        #expect(await Self.shareError(f, items: ["url": .string("gopher://example.org/")]) == error + "NotApplicable")
        #expect(
            await Self.shareError(f, options: ["exclude": .stringArray(["category:share", "category:action"])])
                == error + "NotApplicable")
        for parent in ["x11:", "x11:zz", "wayland:", "mir:1", "x11:12 ", "x11:ＦＦ", "wayland:a\u{1}b"] {
            #expect(await Self.shareError(f, parent: parent) == error + "InvalidArgument", "\(parent)")
        }
        for options: [String: Value] in [
            ["timeout": .uint32(0)], ["timeout": .uint32(3601)], ["include_own": .boolean(true)],
            ["locale": .uint32(1)],
        ] {
            #expect(await Self.shareError(f, options: options) == error + "InvalidArgument", "\(options)")
        }
        #expect(await Self.shareError(f, items: ["title": .string("no url")]) == error + "InvalidArgument")
        try await f.settle()
        #expect(sheet.shows.items.isEmpty, "no sheet was shown for a refused call")
        // Portal-style parents are accepted and passed on.
        _ = try await Self.share(f, parent: "x11:3a00007")
        #expect(try await sheet.shows.next("Show").parentWindow == "x11:3a00007")
    }

    @Test("Unavailable when the broker's environment has neither DISPLAY nor WAYLAND_DISPLAY")
    func unavailableWithoutAGraphicalSession() async throws {
        let f = try await Self.start(display: false)
        let sheet = try await RecordingSheet(bus: f.bus)
        #expect(await Self.shareError(f) == BrokerFixture.errorPrefix + "Unavailable")
        try await f.settle()
        #expect(sheet.shows.items.isEmpty)
    }

    @Test("The session option is AccessDenied unless the caller owns org.activitybroker.Browser")
    func sessionOptionIsReservedForTheBrowser() async throws {
        let f = try await Self.start()
        _ = try await RecordingSheet(bus: f.bus)
        let options: [String: Value] = ["session": .objectPath("/org/activitybroker/Broker1/session/1")]
        #expect(await Self.shareError(f, options: options) == BrokerFixture.errorPrefix + "AccessDenied")
        let browser = try f.bus.connect()
        _ = try await browser.requestName("org.activitybroker.Browser", flags: [.doNotQueue])
        // Accepted from the browser service; no session exists yet, so it names none.
        #expect(await Self.shareError(f, options: options, on: browser) == BrokerFixture.errorPrefix + "NotFound")
    }

    @Test("Share job properties and PropertiesChanged reach the caller alone")
    func shareJobIsPrivate() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        let other = try f.bus.connect()
        let rule = MatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
        let mine = Inbox<IncomingSignal>()
        let theirs = Inbox<IncomingSignal>()
        _ = f.client.addMatch(rule) { mine.put($0) }
        _ = other.addMatch(rule) { theirs.put($0) }
        let finished = f.finishedSignals()
        try await f.settle()
        try await f.settle(on: other)
        let job = try await Self.share(f)
        #expect(
            await f.errorName(
                "Get", [.string(Self.jobInterface.rawValue), .string("State")], on: other, path: job,
                interface: .properties) == BrokerFixture.errorPrefix + "AccessDenied")
        try await sheet.shows.next("Show").choose("org.test.open")
        _ = try await f.finished(job, in: finished)
        try await f.settle()
        let states = mine.items.filter { $0.path == job }.compactMap { $0.body.dropFirst().first?.vardict?["State"]?.string }
        #expect(states == ["running", "completed"])
        #expect(mine.items.first { $0.path == job }?.body.dropFirst().first?.vardict?["ActivityId"] == .string("org.test.open"))
        try await f.settle(on: other)
        #expect(theirs.items.filter { $0.path == job }.isEmpty)
    }

    @Test("A completed Share counts as a use of the chosen activity in the ranking")
    func completedShareCountsAsAUse() async throws {
        let f = try await Self.start()
        let sheet = try await RecordingSheet(bus: f.bus)
        #expect(try await f.offered(Self.url) == ["org.test.open", "org.test.fails", "org.test.slow", "org.test.token"])
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f)
        try await sheet.shows.next("Show").choose("org.test.token")
        #expect(try await f.finished(job, in: finished).state == "completed")
        #expect(try await f.offered(Self.url) == ["org.test.open", "org.test.token", "org.test.fails", "org.test.slow"])
    }

    // MARK: Activation

    @Test("Show starts the sheet service by D-Bus activation")
    func showActivatesTheSheet() async throws {
        let f = try await BrokerFixture(start: false, serviceDirectory: true)
        f.extraEnvironment.withLock { $0["DISPLAY"] = ":77" }
        try f.write(TestManifest.json(id: "org.test.open", perform: #"{"open": "https://share.example/?u={url}"}"#), to: "builtin/open.json")
        // The "sheet" the bus starts says it started, then waits (10 s at most) while the test
        // serves the sheet's name in its place: the bus hands the queued Show to that owner.
        try f.write(
            """
            #!/bin/sh
            : > \(f.output("started"))
            i=0
            while [ ! -e \(f.output("done")) ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done

            """, to: "bin/sheet-helper", mode: 0o755)
        try f.write(
            "[D-BUS Service]\nName=org.activitybroker.Sheet\nExec=\(f.root)/bin/sheet-helper\n",
            to: "services/org.activitybroker.Sheet.service")
        defer { try? f.write("", to: "out/done") }
        try await f.startBroker()
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f)
        try await waitUntil("the bus to start the sheet") { f.read(f.output("started")) != nil }
        let sheet = try await RecordingSheet(bus: f.bus)
        try await sheet.shows.next("the Show the activation queued").choose("org.test.open")
        #expect(try await f.finished(job, in: finished).state == "completed")
    }

    @Test("A sheet that fails to start fails the job with the bus's error name")
    func sheetThatFailsToStart() async throws {
        let f = try await BrokerFixture(start: false, serviceDirectory: true)
        f.extraEnvironment.withLock { $0["DISPLAY"] = ":77" }
        try f.write(TestManifest.json(id: "org.test.open", perform: #"{"open": "https://share.example/?u={url}"}"#), to: "builtin/open.json")
        try f.write(
            "[D-BUS Service]\nName=org.activitybroker.Sheet\nExec=/bin/false\n",
            to: "services/org.activitybroker.Sheet.service")
        try await f.startBroker()
        let finished = f.finishedSignals()
        try await f.settle()
        let job = try await Self.share(f)
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "failed")
        let error = end.results["error"]?.string ?? ""
        #expect(error.hasPrefix("org.freedesktop.DBus.Error.Spawn."), "\(end.results)")
        #expect(f.broker.termination == nil)
    }
}
