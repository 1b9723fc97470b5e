// Click measurement reports end to end: a loopback HTTPS server with a test CA, a moved clock, a SIGKILL before the report.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

@testable import ActivityBroker

@Suite("Private Click Measurement reports")
struct AttributionReportTests {
    static let sites = ["ads.example", "shop.example"]
    /// A clock offset after which any report is due: after a restart a report is due at 00:00
    /// UTC two days after its trigger's day, at most 48 h after the trigger (a margin remains).
    static let overdue = 73 * 3600
    /// The report of `AttributionTests`' click (source id 42) and trigger (data 5).
    static let expectedBody =
        #"{"source_engagement_type":"click","source_site":"ads.example","source_id":42,"attributed_on_site":"shop.example","trigger_data":5,"version":3}"#

    @Test(
        "Click, trigger, SIGKILL, restart three days later: the exact report goes once to both well-known paths, without cookie, credentials or Referer; then it is gone"
    )
    func reportSentOnceAfterCrash() async throws {
        let f = try await AttributionTests.start()
        let server = try await AttributionReportServer(directory: f.root + "/https", sites: Self.sites)
        try await AttributionTests.reported(f, try await RecordingBrowser(bus: f.bus))

        // libcurl is loaded when a report is sent, not at start (CCurlLoader): ~5.5 MB of RSS.
        #expect(!Self.mapsLibcurl(f.broker.pid), "libcurl mapped before any report")
        f.broker.kill()
        _ = try await f.broker.exit()
        #expect(server.requests.isEmpty, "nothing is sent before 24 h")
        try await f.startBroker(
            arguments: ["--clock-offset", String(Self.overdue)] + server.brokerArguments(for: Self.sites))
        try await waitUntil("both reports received and the report forgotten", deadline: .seconds(30)) {
            server.requests.count >= 2 && !AttributionTests.stored(f).contains(#""kind":"report""#)
        }
        #expect(Self.mapsLibcurl(f.broker.pid), "libcurl loaded for the report")
        try await f.settle()
        let requests = server.requests
        #expect(requests.count == 2, "sent once: \(requests)")
        #expect(requests.allSatisfy { $0["body"] as? String == Self.expectedBody }, "\(requests)")
        #expect(
            requests.allSatisfy {
                $0["path"] as? String == "/.well-known/private-click-measurement/report-attribution/"
            })
        #expect(Set(requests.compactMap { $0["host"] as? String }) == Set(Self.sites), "\(requests)")
        for request in requests {
            let headers = request["headers"] as? [String] ?? []
            #expect(
                !headers.contains("cookie") && !headers.contains("authorization")
                    && !headers.contains("referer"))
            #expect(headers.contains("content-type"))
        }
        AttributionTests.expectPrivate(AttributionTests.stored(f) + f.log)
    }

    @Test(
        "Without the test CA the server is not trusted: the report fails, is kept for its one retry, and nothing arrives"
    )
    func untrustedServerIsNotReached() async throws {
        let f = try await AttributionTests.start()
        let server = try await AttributionReportServer(directory: f.root + "/https", sites: Self.sites)
        try await AttributionTests.reported(f, try await RecordingBrowser(bus: f.bus))
        _ = try await f.stopBroker()
        let connectOnly = Self.sites.flatMap {
            ["--attribution-connect-to", "\($0):443:127.0.0.1:\(server.port)"]
        }
        try await f.startBroker(arguments: ["--clock-offset", String(Self.overdue)] + connectOnly)
        try await waitUntil("the failed attempt recorded", deadline: .seconds(30)) {
            AttributionTests.stored(f).contains(#""attempts":1"#)
        }
        #expect(server.requests.isEmpty)
    }

    /// Regression: a report was written as sent only once its POST was answered, so a broker
    /// that died in between had it still stored and sent it again after a restart. Private Click
    /// Measurement prefers at most once: the file no longer holds it once its POST has started
    /// (read while the server holds that POST unanswered), and a broker killed then sends it
    /// never again.
    @Test("Once a report's POST has started the store no longer holds it: killed during the POST, the broker never sends it again")
    func reportIsWrittenAsSentBeforeItsPost() async throws {
        let f = try await AttributionTests.start()
        let server = try await AttributionReportServer(directory: f.root + "/https", sites: Self.sites)
        defer { server.release() }
        try await AttributionTests.reported(f, try await RecordingBrowser(bus: f.bus))
        _ = try await f.stopBroker()
        #expect(AttributionTests.stored(f).contains(#""kind":"report""#))
        server.hold()
        let overdue = ["--clock-offset", String(Self.overdue)] + server.brokerArguments(for: Self.sites)
        try await f.startBroker(arguments: overdue)
        try await waitUntil("the report's first POST, held", deadline: .seconds(30)) {
            server.requests.count >= 1
        }
        let during = AttributionTests.stored(f)
        #expect(!during.contains(#""kind":"report""#), "the file during the POST: \(during)")

        f.broker.kill()
        _ = try await f.broker.exit()
        server.release()
        // The scheduler runs before the broker asks for its name: a report still stored would
        // have been handed to the sender (and logged) by the time it owns it.
        try await f.startBroker(arguments: overdue)
        try await f.settle()
        #expect(
            f.log.components(separatedBy: "sending a click measurement report").count == 2,
            "sent by the first broker only")
        #expect(server.requests.count == 1, "only the POST the killed broker began: \(server.requests)")
    }

    /// Regression (a review found it): a trigger of higher priority that came while the report
    /// was on its way replaced the stored data under the send, so the sites could be told
    /// different data, or the new data was marked delivered unsent.
    @Test("A trigger that comes while its report is on its way is ignored: both sites get the data it left with")
    func triggerDuringSendIsIgnored() async throws {
        let f = try await AttributionTests.start()
        let server = try await AttributionReportServer(directory: f.root + "/https", sites: Self.sites)
        defer { server.release() }
        let browser = try await RecordingBrowser(bus: f.bus)
        try await AttributionTests.reported(f, browser)
        _ = try await f.stopBroker()
        server.hold()
        try await f.startBroker(
            arguments: ["--clock-offset", String(Self.overdue)] + server.brokerArguments(for: Self.sites))
        try await waitUntil("the report's first POST, held", deadline: .seconds(30)) { server.requests.count >= 1 }
        let open = try await AttributionTests.browse(f, browser)
        try AttributionTests.sendTrigger(
            browser, open, url: "https://ads.example/.well-known/private-click-measurement/trigger-attribution/07/09")
        try await waitUntil("the trigger refused", deadline: .seconds(30)) {
            f.log.contains("a trigger came while its report was being sent; it was ignored")
        }
        server.release()
        try await waitUntil("both reports received and the report forgotten", deadline: .seconds(30)) {
            server.requests.count >= 2 && !AttributionTests.stored(f).contains(#""kind":"report""#)
        }
        let requests = server.requests
        #expect(requests.count == 2, "\(requests)")
        #expect(requests.allSatisfy { $0["body"] as? String == Self.expectedBody }, "\(requests)")
    }

    /// docs/click-measurement.md: off, "nothing is kept or sent" — what was stored before the
    /// switch was turned off is forgotten, not sent once it is turned back on (a review found
    /// the store kept, waiting).
    @Test("The off switch also stops sending: a due report is forgotten unsent")
    func offSwitchSendsNothing() async throws {
        let f = try await AttributionTests.start()
        let server = try await AttributionReportServer(directory: f.root + "/https", sites: Self.sites)
        try await AttributionTests.reported(f, try await RecordingBrowser(bus: f.bus))
        _ = try await f.stopBroker()
        try f.write(#"{"private_click_measurement": false}"#, to: "config/activity-broker/config.json")
        // The scheduler runs before the broker asks for its name: once it owns it, a due
        // report would have been handed to the sender (and logged) already.
        try await f.startBroker(
            arguments: ["--clock-offset", String(Self.overdue)] + server.brokerArguments(for: Self.sites))
        try await f.settle()
        #expect(!f.log.contains("sending a click measurement report"))
        #expect(AttributionTests.stored(f) == #"{"version":1,"attributions":[]}"# + "\n")
        #expect(f.log.contains("click measurement is off: stored clicks and reports forgotten"))
        #expect(server.requests.isEmpty)
    }

    /// Whether process `pid` has libcurl mapped (`/proc/PID/maps`, read to its end: a /proc
    /// file's size is 0, so a read by size would see nothing).
    static func mapsLibcurl(_ pid: pid_t) -> Bool {
        let maps = FileHandle(forReadingAtPath: "/proc/\(pid)/maps").flatMap { try? $0.readToEnd() } ?? Data()
        #expect(!maps.isEmpty, "/proc/\(pid)/maps read")
        return String(decoding: maps, as: UTF8.self).contains("/libcurl.so")
    }
}
