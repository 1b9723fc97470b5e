// Copy Link appears only where a clipboard tool can run, and hands that tool the URL alone.
import DBus
import Foundation
import TestSupport
import Testing

@Suite struct CopyLinkGatingTests {
    static let copyLink = "org.activitybroker.copy-link"
    static let url = "https://example.org/page?a=1&b=2#top"

    @Test func waylandClipboardReceivesExactlyTheURL() async throws {
        let session = try await InstalledSession()
        _ = try session.recordingProgram("wl-copy")
        try await session.startBroker(environment: ["WAYLAND_DISPLAY": "wayland-test"])
        #expect(try await session.offered(Self.url).contains(Self.copyLink))
        let (state, _) = try await session.perform(Self.copyLink, url: Self.url)
        #expect(state == "completed")
        #expect(session.recorded("wl-copy", "stdin") == Self.url)
        #expect(session.recorded("wl-copy") == "\n")  // no arguments
    }

    @Test func x11ClipboardIsUsedWhenOnlyDisplayIsSet() async throws {
        let session = try await InstalledSession()
        _ = try session.recordingProgram("wl-copy")
        _ = try session.recordingProgram("xclip")
        try await session.startBroker(environment: ["DISPLAY": ":99"])
        let (state, _) = try await session.perform(Self.copyLink, url: Self.url)
        #expect(state == "completed")
        #expect(session.recorded("xclip", "stdin") == Self.url)
        #expect(session.recorded("xclip") == "-selection\nclipboard\n")
        #expect(session.recorded("wl-copy", "stdin") == nil)
    }

    @Test func withoutAClipboardToolItIsAbsentAndListRegisteredSaysWhy() async throws {
        let session = try await InstalledSession()
        try await session.startBroker(environment: ["WAYLAND_DISPLAY": "wayland-test", "DISPLAY": ":99"])
        #expect(try await !session.offered(Self.url).contains(Self.copyLink))
        let record = try #require(try await session.registered(Self.copyLink))
        #expect(record["available"]?.bool == false)
        let reason = record["reason"]?.string ?? ""
        #expect(reason.contains("wl-copy") && reason.contains("xclip"))
    }

    @Test func aToolOnPathWithoutItsDisplayDoesNotCount() async throws {
        let session = try await InstalledSession()
        _ = try session.recordingProgram("wl-copy")
        try await session.startBroker()
        #expect(try await !session.offered(Self.url).contains(Self.copyLink))
    }

    @Test func installingAClipboardToolOffersItAndTellsSubscribers() async throws {
        let session = try await InstalledSession()
        try await session.startBroker(environment: ["WAYLAND_DISPLAY": "wayland-test"])
        let changed = Inbox<IncomingSignal>()
        _ = session.client.addMatch(DBus.MatchRule(interface: "org.activitybroker.Broker1", member: "ActivitiesChanged")) {
            changed.put($0)
        }
        #expect(try await !session.offered(Self.url).contains(Self.copyLink))
        _ = try session.recordingProgram("wl-copy")
        // Another ActivitiesChanged (the desktop scan ending late on a loaded machine) may come
        // first: each signal is followed by a look, until one brings Copy Link or time is up.
        let deadline = Deadline.standard
        repeat {
            _ = try await changed.next("ActivitiesChanged after wl-copy appeared", deadline: deadline)
        } while try await !session.offered(Self.url).contains(Self.copyLink)
    }
}
