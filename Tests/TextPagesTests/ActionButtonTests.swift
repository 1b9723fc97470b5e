// ActionButtonTests: the Action sheet merges broker offers with the app's activities, minus exclusions.

import ActivityBrokerClient
import Foundation
import Navigation
import Testing
import TextPages

/// Records the items an in-process activity ran on.
actor HandlerLog {
    private(set) var runs: [SharedItems] = []
    func record(_ items: SharedItems) { runs.append(items) }
}

@Suite("Action button")
struct ActionButtonTests {
    static let telegram = OfferedActivity(
        id: "org.activitybroker.telegram", name: "Telegram", icon: "telegram", category: "share",
        origin: "builtin")
    static let mail = OfferedActivity(
        id: "org.activitybroker.mail", name: "Mail", icon: "mail", category: "share", origin: "system")
    static let copy = OfferedActivity(
        id: "org.activitybroker.copy", name: "Copy Link", icon: "edit-copy", category: "action",
        origin: "builtin")
    static let offers = [telegram, mail, copy]

    static func readLater(_ log: HandlerLog) -> CustomActivity {
        CustomActivity(id: "com.example.app.read-later", title: "Read Later", icon: "bookmark-new") { items in
            await log.record(items)
            return ActivityOutcome(state: .completed, results: ["saved": .string(items.url)])
        }
    }

    @Test func customActivityJoinsTheActionRowAndRunsInProcess() async throws {
        try await withLoopbackServer { server in
            let log = HandlerLog()
            let broker = RecordingOffering(offers: Self.offers)
            let session = server.session(
                "/page/a",
                configuration: NavigationConfiguration(
                    customActivities: [Self.readLater(log)], locale: "de_DE"), offering: broker,
                opener: RecordingOpener())
            try await session.start()
            let sheet = try await session.actionActivities()
            #expect(sheet.shareRow.map(\.id) == [Self.telegram.id, Self.mail.id])
            #expect(sheet.actionRow.map(\.id) == ["com.example.app.read-later", Self.copy.id])
            #expect(sheet.actionRow.first?.isCustom == true)
            #expect(sheet.brokerError == nil)
            let expectedItems = SharedItems(url: server.url("/canonical/a").absoluteString, title: "Page & A")
            #expect(sheet.items == expectedItems)
            #expect(await broker.listCalls.map(\.items) == [expectedItems])
            #expect(await broker.listCalls.first?.locale == "de_DE")

            let outcome = try await session.perform("com.example.app.read-later")
            #expect(
                outcome
                    == ActivityOutcome(
                        state: .completed,
                        results: ["saved": .string(server.url("/canonical/a").absoluteString)]))
            #expect(await log.runs == [expectedItems])
            #expect(await broker.performCalls.isEmpty)
        }
    }

    @Test func brokerActivityIsPerformedThroughTheBrokerWithTheSharedItems() async throws {
        try await withLoopbackServer { server in
            let broker = RecordingOffering(offers: Self.offers)
            let session = server.session("/page/a", offering: broker, opener: RecordingOpener())
            try await session.start()
            let outcome = try await session.perform(Self.telegram.id)
            #expect(outcome.state == .completed)
            let calls = await broker.performCalls
            #expect(calls.map(\.id) == [Self.telegram.id])
            #expect(
                calls.first?.items
                    == SharedItems(url: server.url("/canonical/a").absoluteString, title: "Page & A"))
        }
    }

    @Test func exclusionsRemoveOfferedAndCustomActivities() async throws {
        try await withLoopbackServer { server in
            let log = HandlerLog()
            let shareCustom = CustomActivity(id: "com.example.app.post", title: "Post", category: "share") {
                _ in .completed
            }
            let broker = RecordingOffering(offers: Self.offers)
            let configuration = NavigationConfiguration(
                excludedActivities: [Self.copy.id, "category:share"],
                customActivities: [Self.readLater(log), shareCustom])
            let session = server.session(
                "/page/a", configuration: configuration, offering: broker, opener: RecordingOpener())
            try await session.start()
            let sheet = try await session.actionActivities()
            #expect(sheet.shareRow.isEmpty)
            #expect(sheet.actionRow.map(\.id) == ["com.example.app.read-later"])
            #expect(await broker.listCalls.first?.excluding == [Self.copy.id, "category:share"])

            for excluded in [Self.copy.id, Self.telegram.id, "com.example.app.post"] {
                await #expect {
                    _ = try await session.perform(excluded)
                } throws: { error in
                    if case NavigationError.notOffered(let id) = error { return id == excluded }
                    return false
                }
            }
            #expect(await broker.performCalls.isEmpty)
        }
    }

    @Test func exclusionsAreEnforcedEvenWhenTheBrokerIgnoresThem() async throws {
        /// A broker that offers everything whatever the exclusions say.
        actor CarelessBroker: ActivityOffering {
            func offeredActivities(for items: SharedItems, excluding: [String], locale: String?) async throws
                -> [OfferedActivity]
            {
                ActionButtonTests.offers
            }
            func performActivity(_ id: String, items: SharedItems) async throws -> ActivityOutcome {
                .completed
            }
        }
        try await withLoopbackServer { server in
            let session = server.session(
                "/page/a", configuration: NavigationConfiguration(excludedActivities: ["category:share"]),
                offering: CarelessBroker(), opener: RecordingOpener())
            try await session.start()
            let sheet = try await session.actionActivities()
            #expect(sheet.all.map(\.id) == [Self.copy.id])
            await #expect {
                _ = try await session.perform(Self.mail.id)
            } throws: { error in
                if case NavigationError.notOffered = error { return true }
                return false
            }
        }
    }

    @Test func delegateExclusionsApplyPerPage() async throws {
        try await withLoopbackServer { server in
            let log = HandlerLog()
            let delegate = RecordingDelegate(exclusions: ["com.example.app.read-later", Self.mail.id])
            let broker = RecordingOffering(offers: Self.offers)
            let session = server.session(
                "/page/b", configuration: NavigationConfiguration(customActivities: [Self.readLater(log)]),
                offering: broker, opener: RecordingOpener(), delegate: delegate)
            try await session.start()
            let sheet = try await session.actionActivities()
            #expect(sheet.all.map(\.id) == [Self.telegram.id, Self.copy.id])
            #expect(delegate.events.contains(.exclusionsAsked(server.url("/page/b"))))
            await #expect {
                _ = try await session.perform("com.example.app.read-later")
            } throws: { error in
                if case NavigationError.notOffered = error { return true }
                return false
            }
            #expect(await log.runs.isEmpty)
        }
    }

    @Test func appActivityReplacesABrokerActivityWithTheSameID() async throws {
        try await withLoopbackServer { server in
            let mine = CustomActivity(id: Self.copy.id, title: "Copy (app)") { _ in .completed }
            let broker = RecordingOffering(offers: Self.offers)
            let session = server.session(
                "/page/b", configuration: NavigationConfiguration(customActivities: [mine]), offering: broker,
                opener: RecordingOpener())
            try await session.start()
            let sheet = try await session.actionActivities()
            #expect(sheet.actionRow.map(\.name) == ["Copy (app)"])
            #expect(try await session.perform(Self.copy.id) == .completed)
            #expect(await broker.performCalls.isEmpty)
        }
    }

    @Test func brokerFailureKeepsTheAppActivities() async throws {
        struct Unreachable: Error {}
        try await withLoopbackServer { server in
            let log = HandlerLog()
            let broker = RecordingOffering(offers: Self.offers, failing: Unreachable())
            let session = server.session(
                "/page/b", configuration: NavigationConfiguration(customActivities: [Self.readLater(log)]),
                offering: broker, opener: RecordingOpener())
            try await session.start()
            let sheet = try await session.actionActivities()
            #expect(sheet.all.map(\.id) == ["com.example.app.read-later"])
            #expect(sheet.brokerError != nil)
            await #expect {
                _ = try await session.perform(Self.telegram.id)
            } throws: { error in
                if case NavigationError.broker(let underlying) = error { return underlying is Unreachable }
                return false
            }
        }
    }

    @Test func withoutABrokerOnlyAppActivitiesRun() async throws {
        try await withLoopbackServer { server in
            let log = HandlerLog()
            let session = server.session(
                "/page/b", configuration: NavigationConfiguration(customActivities: [Self.readLater(log)]),
                opener: RecordingOpener())
            try await session.start()
            #expect(try await session.actionActivities().all.map(\.id) == ["com.example.app.read-later"])
            await #expect {
                _ = try await session.perform(Self.telegram.id)
            } throws: { error in
                if case NavigationError.noBroker = error { return true }
                return false
            }
        }
    }
}
