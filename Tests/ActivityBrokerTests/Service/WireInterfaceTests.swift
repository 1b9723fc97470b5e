// The wire contract's members as written in API.md's notation: what the notation reads to, and the token paths.
import ActivityBrokerInterface
import DBus
import Testing

@Suite struct WireInterfaceTests {
    @Test func argumentsReadAsSignatureThenName() {
        let show = Sheet1.show
        #expect(
            show.inArguments.map(\.name) == [
                "handle", "app_id", "parent_window", "items", "activities", "options",
            ])
        #expect(show.inArguments.map(\.signature.rawValue) == ["o", "s", "s", "a{sv}", "aa{sv}", "a{sv}"])
        #expect(show.outArguments.map(\.signature.rawValue) == ["u", "a{sv}"])
        #expect(show.interface == Sheet1.interface)
        #expect(show.name.rawValue == "Show")
    }

    @Test func readOnlyIsKeptOnlyWhereDeclared() {
        #expect(Broker1.listActivities.readOnly)
        #expect(Broker1.explain.readOnly)
        #expect(!Broker1.perform.readOnly)
    }

    @Test func aMethodWithoutArgumentsHasNone() {
        #expect(Broker1.clearHistory.inArguments.isEmpty)
        #expect(Broker1.clearHistory.outArguments.isEmpty)
        #expect(Session1.finished.arguments.isEmpty)
    }

    @Test func aSignalKeepsItsArguments() {
        #expect(Browser1.event.arguments.map(\.name) == ["handle", "name", "details"])
        #expect(Job1.finished.arguments.map(\.signature.rawValue) == ["s", "a{sv}"])
    }

    @Test func jobsAndSessionsLiveBelowTheBrokerByToken() {
        #expect(Job1.path(token: "abc").rawValue == "/org/activitybroker/Broker1/job/abc")
        #expect(Session1.path(token: "abc").rawValue == "/org/activitybroker/Broker1/session/abc")
    }

    @Test func aServiceCallGoesToItsObject() {
        let call = Browser1.call(Browser1.close, [.objectPath("/x")])
        #expect(call.destination == Browser1.busName)
        #expect(call.path == Browser1.objectPath)
        #expect(call.interface == Browser1.interface)
        #expect(call.member.rawValue == "Close")
    }

    @Test func theEventsTheBrokerForwardsAreNamedAsTheSessionSignals() {
        #expect(Browser1.EventName.initialLoadCompleted == "InitialLoadCompleted")
        #expect(Browser1.EventName.finished == Session1.finished.name.rawValue)
    }
}
