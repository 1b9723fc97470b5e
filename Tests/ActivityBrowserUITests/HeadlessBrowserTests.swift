// activity-browser started with no display: it serves its name and answers Open with Unavailable, instead of trapping.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

@Suite struct HeadlessBrowserTests {
    /// Its "serving" line was built in a closure inside the bus reply handler, which inherited
    /// the main actor's isolation and trapped on the bus loop whenever there was no display (the
    /// sheet's bug of commit 3bee456).
    @Test func withoutADisplayTheBrowserServesAndOpenIsUnavailable() async throws {
        let bus = try await TestBus.start()
        defer { bus.stopInBackground() }
        let home = try TemporaryDirectory(prefix: "browser-home")
        defer { home.remove() }
        let broker = try bus.connect()
        defer { broker.close() }
        #expect(try await broker.requestName(Broker1.busName, flags: .doNotQueue) == .primaryOwner)
        // No DISPLAY or WAYLAND_DISPLAY.
        let browser = try ChildProcess(
            executable: try BuiltProducts.executable("activity-browser"), arguments: ["--bus", bus.address],
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": home.path, "XDG_RUNTIME_DIR": home.path,
                "PATH": "/usr/bin:/bin", "LANG": "C",
            ])
        defer { browser.terminate() }
        let line = try await browser.nextLine(in: .standardError) { $0.contains("serving ") }
        #expect(line.contains("cannot open the display"), "\(line)")
        do {
            _ = try await broker.call(
                Browser1.call(
                    Browser1.open,
                    [
                        .objectPath("/org/activitybroker/Broker1/session/1"), .string("org.example.Reader"),
                        .string(""), .string("https://example.org/"), .vardict([:]),
                    ]), timeout: .seconds(30))
            Issue.record("Open succeeded without a display")
        } catch {
            #expect(error.name == BrokerErrorName.unavailable.rawValue)
        }
        #expect(browser.termination == nil, "still running: \(browser.standardError)")
    }
}
