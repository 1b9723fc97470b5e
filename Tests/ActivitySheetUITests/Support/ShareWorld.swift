// The end-to-end world of a Share: SheetFixture's display and bus, the real broker on that bus, and a client app.
import ActivityBrokerClient
import DBus
import Foundation
import TestSupport
import Testing

/// What `ShareEndToEndTests` play against: `SheetFixture`'s Xvfb and private bus (whose
/// service directory activates the built `activity-sheet`, and the AT-SPI bus), the real
/// `activity-broker` started on that bus by `BrokerHarness` with `DISPLAY` in its
/// environment (a graphical session) and a recording `--opener`, and `client`, an app's
/// `BrokerProxy` on a connection of its own. The broker — not the test — calls the sheet.
final class ShareWorld: @unchecked Sendable {
    let fixture: SheetFixture
    let harness: BrokerHarness
    let client: BrokerProxy

    /// The page every test shares.
    static let items = SharedItems(url: "https://www.example.org/news/today", title: "Today's News")
    /// What the `open` activity hands to the opener for `items`.
    static let openedURL = "https://share.example/?u=https%3A%2F%2Fwww.example.org%2Fnews%2Ftoday"
    /// The sheet's window title for `items` (SheetStrings, English).
    static let windowTitle = "Share – Today's News"

    /// The built-in manifests: two shares and two actions, ranked by priority, one of them
    /// an `exec` that fails with status 4.
    static let manifests: [String: String] = [
        "open.json": openManifest(
            id: "test.open", name: "Open Share", template: "https://share.example/?u={url}", priority: 10),
        "mail.json": openManifest(
            id: "test.mail", name: "Mail Link", template: "mailto:?body={url}", priority: 8),
        "fails.json": execManifest(
            id: "test.fails", name: "Failing Upload", argv: ["/bin/sh", "-c", "exit 4"], priority: 5),
        "copy.json": execManifest(id: "test.copy", name: "Copy It", argv: ["/bin/true"], priority: 1),
    ]

    init() async throws {
        let fixture = try await SheetFixture(ownsBrokerName: false)
        self.fixture = fixture
        harness = try await BrokerHarness(bus: fixture.bus, manifests: Self.manifests, start: false)
        let display = fixture.xvfb.display
        harness.extraEnvironment.withLock { $0["DISPLAY"] = display }
        try await harness.start()
        client = BrokerProxy(connection: try fixture.bus.connect(), address: fixture.bus.address)
    }

    deinit { harness.stopInBackground() }

    /// A new app on the bus: its own connection, its own proxy.
    func connectApp() throws -> BrokerProxy {
        BrokerProxy(connection: try fixture.bus.connect(), address: fixture.bus.address)
    }

    /// Calls `Share` from `app` (the client by default) in a task that ends with the job's
    /// `Finished`; returns once the broker has accepted it (the job path is known).
    func share(
        from app: BrokerProxy? = nil, options: ShareOptions = ShareOptions()
    ) async throws -> (job: ObjectPath, outcome: Task<ActivityOutcome, any Error>) {
        let proxy = app ?? client
        let started = Inbox<ObjectPath>()
        let outcome = Task {
            try await proxy.share(items: Self.items, options: options) { started.put($0) }
        }
        let job: ObjectPath
        do {
            job = try await started.next("the Share job", deadline: .seconds(30))
        } catch {
            // Share itself failed: its error says why.
            _ = try await outcome.value
            throw error
        }
        return (job, outcome)
    }

    /// The sheet's X window: the visible window of the activated sheet process `pid`
    /// (`xdotool search --pid`), checked to carry the sheet's title for `items`.
    func sheetWindow(pid: UInt32, title: String = windowTitle) async throws -> String {
        let window = try await fixture.window(pid: pid)
        let shown = try await fixture.title(window: window)
        guard shown == title else {
            throw SheetFixture.ToolError(
                description: "the window of pid \(pid) is titled '\(shown)', not '\(title)'")
        }
        return window
    }

    /// The names of the sheet's activity buttons in the order it shows them: the sheet puts
    /// `offered`'s shares in its Share row and its actions in the Actions list, each in the
    /// broker's order; the header bar's Cancel comes last in GTK's tree.
    static func expectedButtons(_ offered: [OfferedActivity]) -> [String] {
        offered.filter { $0.category == "share" }.map(\.name)
            + offered.filter { $0.category != "share" }.map(\.name)
            + ["Cancel"]
    }
}
