// Private Click Measurement in the broker: the gesture proof, triggers from the window, the store file and its privacy.
import ActivityBrokerInterface
import DBus
import Foundation
import SystemSupport
import TestSupport
import Testing

@testable import ActivityBroker

@Suite("Private Click Measurement in the broker")
struct AttributionTests {
    typealias Event = Browser1.EventName
    static let page = "https://www.shop.example/item?ref=secret-query"
    static let trigger = "https://ads.example/.well-known/private-click-measurement/trigger-attribution/05/02"

    static func attribution(id: UInt8 = 42) -> [String: Value] {
        [
            "source_identifier": .byte(id), "destination_url": .string("https://shop.example/item"),
            "report_endpoint": .string("https://ads.example"),
            "source_description": .string("Secret banner title"),
            "purchaser": .string("Shop"),
        ]
    }

    static func storeFile(_ f: BrokerFixture) -> String { f.root + "/state/activity-broker/attribution.json" }

    /// The store's content, "" when there is no file.
    static func stored(_ f: BrokerFixture) -> String { f.read(storeFile(f)) ?? "" }

    /// Browse with the attribution (and a token unless `token` is nil); the window's Open.
    static func browse(
        _ f: BrokerFixture, _ browser: RecordingBrowser, token: String? = "token-1", id: UInt8 = 42
    ) async throws -> RecordingBrowser.Open {
        var options: [String: Value] = ["event_attribution": .vardict(attribution(id: id))]
        if let token { options["activation_token"] = .string(token) }
        _ = try await BrowseTests.browse(f, url: page, options: options)
        return try await browser.opens.next("Open")
    }

    static func proveGesture(
        _ browser: RecordingBrowser, _ open: RecordingBrowser.Open, _ activated: Bool = true
    ) throws {
        try browser.send(Event.clickActivated, details: ["activated": .boolean(activated)], for: open)
    }

    static func sendTrigger(
        _ browser: RecordingBrowser, _ open: RecordingBrowser.Open, url: String = trigger, page: String = page
    ) throws {
        try browser.send(
            Event.attributionTrigger, details: ["url": .string(url), "page": .string(page)], for: open)
    }

    /// The broker's debug line for a proof that did not come within the gesture window.
    static let lateProof = "the window did not become active in time"

    /// A gesture window (`--gesture-window`, a testing aid) no proof sent at once can miss,
    /// however loaded the machine: the product's 2 s are for people, and the tests that need a
    /// click kept are about what follows it. The rule itself is `noProofNothingKept`'s. 300 s,
    /// not 30 s: while the whole suite starts, one test's next step has come 25 s after its
    /// previous one (SignalTests), and the proof is such a step.
    static let proofInTime = ["--gesture-window", "300"]

    /// A browsing broker (`BrowseTests.start`) with `proofInTime` and `arguments`.
    static func start(arguments: [String] = []) async throws -> BrokerFixture {
        try await BrowseTests.start(arguments: proofInTime + arguments)
    }

    /// `browse`, the gesture proven, until the click is stored; the window's Open. The broker
    /// runs with `proofInTime` (`start`), so the proof is never late.
    static func clicked(_ f: BrokerFixture, _ browser: RecordingBrowser) async throws -> RecordingBrowser.Open
    {
        let open = try await browse(f, browser)
        try proveGesture(browser, open)
        try await waitUntil("the click stored") { stored(f).contains(#""kind":"click""#) }
        return open
    }

    /// Waits until the store holds a report.
    static func waitForReport(_ f: BrokerFixture) async throws {
        try await waitUntil("the report stored") { stored(f).contains(#""kind":"report""#) }
    }

    /// `clicked`, then the window's trigger, until its report is stored.
    static func reported(_ f: BrokerFixture, _ browser: RecordingBrowser) async throws {
        try sendTrigger(browser, try await clicked(f, browser))
        try await waitForReport(f)
    }

    @Test("Token and ClickActivated(true): the click is kept, 0600, sites and a day only")
    func gestureProvenClickIsKept() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        _ = try await Self.clicked(f, browser)
        let text = Self.stored(f)
        #expect(
            text.contains(#""source_site":"ads.example","destination_site":"shop.example","source_id":42"#))
        var info = stat()
        #expect(stat(Self.storeFile(f), &info) == 0 && info.st_mode & 0o777 == 0o600)
        Self.expectPrivate(text + f.log)
    }

    @Test(
        "No gesture proof, nothing kept: no token, ClickActivated(false), or none within the window",
        arguments: [
            ("no token", "no activation_token"), ("not activated", "the window did not become active\n"),
            ("too late", lateProof),
        ])
    func noProofNothingKept(case name: String, reason: String) async throws {
        let late = name == "too late"
        // The real rule with a window of 0.2 s for the late proof; elsewhere a window the test
        // cannot miss, so that only the case's own reason can discard the click.
        let f = try await BrowseTests.start(arguments: late ? ["--gesture-window", "0.2"] : Self.proofInTime)
        let browser = try await RecordingBrowser(bus: f.bus)
        let open = try await Self.browse(f, browser, token: name == "no token" ? nil : "token-1")
        if name != "no token" {
            try await waitUntil("the window armed") { f.log.contains("the gesture proof may take ") }
            #expect(f.log.contains("the gesture proof may take " + (late ? "0.2 seconds" : "300.0 seconds")), Comment(rawValue: f.log))
        }
        if late {
            // Waiting past the window is this case's input: the proof goes once the broker has
            // said the window passed (its log line, waited for with a deadline, not a sleep).
            try await waitUntil("the window to pass") { f.log.contains(Self.lateProof) }
        }
        try Self.proveGesture(browser, open, name != "not activated")
        try await f.settle()
        try await waitUntil("the discard logged") { f.log.contains("click attribution discarded") }
        #expect(f.log.components(separatedBy: "click attribution discarded").count == 2, "one debug line")
        #expect(f.log.contains("click attribution discarded: " + reason), Comment(rawValue: f.log))
        // A trigger for the pair now finds nothing.
        try Self.sendTrigger(browser, open)
        try await f.settle()
        #expect(!Self.stored(f).contains(#""kind""#), Comment(rawValue: Self.stored(f)))
    }

    @Test("The broker arms the window it was given: 3 s by default, --gesture-window's otherwise")
    func gestureWindowReachesTheRule() async throws {
        for (arguments, said) in [([String](), "3.0 seconds"), (Self.proofInTime, "300.0 seconds")] {
            let f = try await BrowseTests.start(arguments: arguments)
            let browser = try await RecordingBrowser(bus: f.bus)
            _ = try await Self.browse(f, browser)
            try await waitUntil("the window armed") { f.log.contains("the gesture proof may take ") }
            #expect(f.log.contains("the gesture proof may take " + said), Comment(rawValue: f.log))
        }
    }

    @Test("A trigger on the destination site turns the click into a report due 24–48 h later")
    func triggerSchedulesReport() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        let open = try await Self.clicked(f, browser)
        try Self.sendTrigger(browser, open)
        try await waitUntil("the report stored") { Self.stored(f).contains(#""kind":"report""#) }
        let text = Self.stored(f)
        #expect(text.contains(#""source_id":42,"trigger_data":5,"priority":2"#), Comment(rawValue: text))
        #expect(!text.contains(#""kind":"click""#), "the click became the report")
        let now = Int(Date().timeIntervalSince1970)
        let days = [now + 86_400, now + 172_800].map { AttributionDayText.of($0) }
        #expect(days.contains { text.contains(#""send_after":"\#($0)""#) }, Comment(rawValue: text))
        Self.expectPrivate(text + f.log)
    }

    @Test(
        "Triggers that do nothing: plain http, out-of-range data, another site's page, an unknown source",
        arguments: [
            ("http://ads.example/.well-known/private-click-measurement/trigger-attribution/05", page),
            ("https://ads.example/.well-known/private-click-measurement/trigger-attribution/16", page),
            ("https://ads.example/.well-known/private-click-measurement/trigger-attribution/05/64", page),
            (trigger, "https://elsewhere.example/"),
            ("https://other.example/.well-known/private-click-measurement/trigger-attribution/05", page),
        ])
    func triggersThatDoNothing(url: String, page: String) async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        let open = try await Self.clicked(f, browser)
        try Self.sendTrigger(browser, open, url: url, page: page)
        try await f.settle()
        let text = Self.stored(f)
        #expect(
            text.contains(#""kind":"click""#) && !text.contains(#""kind":"report""#), Comment(rawValue: text))
    }

    @Test("The off switch in config.json: nothing is stored")
    func offSwitch() async throws {
        let f = try await Self.start()
        try f.write(#"{"private_click_measurement": false}"#, to: "config/activity-broker/config.json")
        let browser = try await RecordingBrowser(bus: f.bus)
        let open = try await Self.browse(f, browser)
        try Self.proveGesture(browser, open)
        try Self.sendTrigger(browser, open)
        try await waitUntil("the refusal logged") { f.log.contains("click measurement is off") }
        try await f.settle()
        #expect(!FileManager.default.fileExists(atPath: Self.storeFile(f)))
    }

    @Test("A corrupt store file starts empty with one log line, and is replaced at the next change")
    func corruptFile() async throws {
        let f = try await BrokerFixture(start: false)
        f.extraEnvironment.withLock { $0["DISPLAY"] = ":77" }
        try f.write("{not json", to: "state/activity-broker/attribution.json")
        try await f.startBroker(arguments: Self.proofInTime)
        try await waitUntil("the log line") { f.log.contains("is corrupt; starting empty") }
        #expect(f.log.components(separatedBy: "is corrupt").count == 2)
        let browser = try await RecordingBrowser(bus: f.bus)
        let open = try await Self.browse(f, browser)
        try Self.proveGesture(browser, open)
        try await waitUntil("the click stored") { Self.stored(f).hasPrefix(#"{"version":1"#) }
    }

    /// The store and the log hold no URL path or query, no title, no time finer than a day.
    static func expectPrivate(_ text: String) {
        for secret in ["/item", "secret-query", "Secret banner", "trigger-attribution", "/.well-known"] {
            #expect(!text.contains(secret), "\(secret) leaked")
        }
        #expect(text.range(of: #"[0-9]{2}:[0-9]{2}"#, options: .regularExpression) == nil, "a time of day")
        #expect(text.range(of: #"[0-9]{9,}"#, options: .regularExpression) == nil, "an epoch time")
    }
}

/// `YYYY-MM-DD` of an instant, as the store writes days.
enum AttributionDayText {
    static func of(_ instant: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(instant)))
    }
}
