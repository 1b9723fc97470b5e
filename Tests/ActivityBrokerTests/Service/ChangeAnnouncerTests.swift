// ActivitiesChanged is not announced for what changed while the broker was starting.
import ActivityBrokerInterface
import DBus
import Testing
import TestSupport

@testable import ActivityBroker

@Suite struct ChangeAnnouncerTests {
    /// Regression: an availability change found while the broker learned the bus's names was
    /// announced up to a window after start-up, and a client that subscribed once the name was
    /// owned took it for the change it was waiting for (CopyLinkGatingTests failed CI so).
    /// The first announcement once live goes out at once (it was held back a whole window).
    /// Signals from one connection arrive in order, so a marker sent after `announce()` is a
    /// barrier: whatever `announce()` sent would come before it.
    @Test func nothingIsAnnouncedBeforeGoLive() async throws {
        let bus = try await TestBus.start()
        defer { bus.stopInBackground() }
        let broker = try bus.connect()
        let listener = try bus.connect()
        defer {
            listener.close()
            broker.close()
        }
        let heard = Inbox<String>()
        _ = listener.addMatch(MatchRule(sender: broker.uniqueName, interface: "org.activitybroker.Broker1")) {
            heard.put($0.member)
        }
        _ = listener.addMatch(MatchRule(sender: broker.uniqueName, interface: "org.example.Test")) {
            heard.put($0.member)
        }
        _ = try await listener.call(
            MethodCall(destination: try BusName(broker.uniqueName), path: "/", interface: .peer, member: "Ping"))
        let announcer = ChangeAnnouncer(connection: broker)
        let marker = Signal(path: "/test", interface: "org.example.Test", member: "Marker")

        broker.queue.sync { announcer.announce() }
        broker.queue.sync { try? broker.emit(marker) }
        #expect(try await heard.next("the marker") == "Marker", "nothing before it")

        broker.queue.sync {
            announcer.goLive()
            announcer.announce()
        }
        #expect(try await heard.next("ActivitiesChanged once live") == Broker1.activitiesChanged.name.rawValue)
        broker.queue.sync { try? broker.emit(marker) }
        #expect(try await heard.next("the second marker") == "Marker", "one announcement")
    }
}
