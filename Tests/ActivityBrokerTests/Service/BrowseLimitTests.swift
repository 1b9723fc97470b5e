// Browse's bounds: exclude's count and entry length, the broker-wide session cap, and Session1.Close repeated while closing.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Foundation
import TestSupport
import Testing

@testable import ActivityBroker

@Suite("Browse's limits")
struct BrowseLimitTests {
    static let error = BrokerFixture.errorPrefix
    typealias Event = Browser1.EventName

    @Test(
        "Regression: Browse kept an exclude of any count and length for the session: 257 entries is LimitExceeded, a 256-byte entry InvalidArgument"
    )
    func excludeBounds() async throws {
        let f = try await BrowseTests.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        let most = BrowseRequest.maxExclusions
        let ids = (0..<(most + 1)).map { "org.test.x\($0)" }
        #expect(
            await BrowseTests.browseError(f, options: ["exclude": .stringArray(ids)])
                == Self.error + "LimitExceeded")
        let long = String(repeating: "a", count: ActivityID.maxLength + 1)
        #expect(
            await BrowseTests.browseError(f, options: ["exclude": .stringArray(["category:action", long])])
                == Self.error + "InvalidArgument")
        try await f.settle()
        #expect(browser.opens.items.isEmpty, "no window for a refused call")
        // At the bounds it is accepted, and the broker still answers.
        let longest = String(repeating: "a", count: ActivityID.maxLength)
        _ = try await BrowseTests.browse(
            f, options: ["exclude": .stringArray(Array(ids.prefix(most - 1)) + [longest])])
        #expect(try await browser.opens.next("Open").options["exclude"]?.stringArray?.count == most)
    }

    @Test(
        "Regression: browsing sessions had no broker-wide cap: the 65th across connections is LimitExceeded, a finished one frees its place"
    )
    func brokerWideSessionLimit() async throws {
        let f = try await BrowseTests.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        let perOwner = BrowsingSessions.maximumPerOwner
        let apps = try (0..<(BrowsingSessions.maximum / perOwner)).map { _ in try f.bus.connect() }
        for app in apps {
            for _ in 0..<perOwner { _ = try await BrowseTests.browse(f, on: app) }
        }
        let late = try f.bus.connect()
        #expect(
            await f.errorName("Browse", [.string(""), .string(BrowseTests.url), .vardict([:])], on: late)
                == Self.error + "LimitExceeded")
        try await f.settle(on: late)
        // Whichever Open came first (the app ids are read concurrently: Opens need not come in order).
        let first = try await browser.opens.next("Open")
        try browser.send(Event.finished, for: first)
        try await waitUntil("the session to end") { f.log.contains(": finished") }
        _ = try await BrowseTests.browse(f, on: late)
    }

    @Test(
        "Regression: Session1.Close repeated before the window closed sent the browser service another Close each time; now one, and Finished once"
    )
    func repeatedCloseAsksOnce() async throws {
        let f = try await BrowseTests.start()
        let browser = try await RecordingBrowser(bus: f.bus, holdingCloses: true)
        let signals = BrowseTests.sessionSignals(f)
        try await f.settle()
        let path = try await BrowseTests.browse(f)
        _ = try await browser.opens.next("Open")
        for _ in 0..<5 { try await f.call("Close", path: path, interface: Session1.interface) }
        // The broker sends its calls to the browser in order: once this Open has arrived, any
        // Close it sent before it has too.
        _ = try await BrowseTests.browse(f)
        _ = try await browser.opens.next("the second Open")
        #expect(browser.closes.count == 1, "one Browser1.Close for five Session1.Close")
        #expect(BrowseTests.members(signals, path).isEmpty, "no Finished before the window closed")

        browser.answerCloses()
        try await waitUntil("Finished") { BrowseTests.members(signals, path) == ["Finished"] }
        #expect(
            await f.errorName("Close", path: path, interface: Session1.interface)
                == DBusError.unknownObjectName,
            "after Finished the object is gone")
        try await f.settle()
        #expect(BrowseTests.members(signals, path) == ["Finished"], "Finished once")
        #expect(browser.closes.count == 1)
    }
}
