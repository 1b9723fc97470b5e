// RealBrokerTests: a navigation session whose Action button is the real activity-broker on a private bus.

import ActivityBrokerClient
import Foundation
import Navigation
import TestSupport
import Testing
import TextPages

@Suite("Navigation session with the real broker")
struct RealBrokerTests {
    /// A manifest for an activity that runs `true` for http URLs on 127.0.0.1.
    static func manifest(id: String, name: String, category: String) -> String {
        """
        {"id": "\(id)", "name": "\(name)", "icon": "system-run", "category": "\(category)",
         "match": {"schemes": ["http"], "hosts": ["127.0.0.1"]},
         "perform": {"exec": ["true"]}}
        """
    }

    @Test func actionSheetAndPerformGoThroughTheBroker() async throws {
        // The broker sees only our manifests: the harness gives it empty XDG directories of its own.
        let broker = try await BrokerHarness(manifests: [
            "send.json": Self.manifest(id: "org.example.navtest.send", name: "Send", category: "share"),
            "keep.json": Self.manifest(id: "org.example.navtest.keep", name: "Keep", category: "action"),
        ])
        defer { broker.stopInBackground() }
        let proxy = try BrokerProxy.connect(bus: .address(broker.bus.address))

        try await withLoopbackServer { server in
            let ranInApp = HandlerLog()
            let readLater = CustomActivity(id: "com.example.app.read-later", title: "Read Later") { items in
                await ranInApp.record(items)
                return .completed
            }
            let session = server.session(
                "/page/a", configuration: NavigationConfiguration(customActivities: [readLater]),
                offering: proxy, opener: RecordingOpener())
            try await session.start()
            let sheet = try await session.actionActivities()
            #expect(sheet.brokerError == nil)
            #expect(sheet.shareRow.map(\.id) == ["org.example.navtest.send"])
            #expect(sheet.actionRow.map(\.id) == ["com.example.app.read-later", "org.example.navtest.keep"])
            #expect(sheet.shareRow.first?.origin == "builtin")

            let outcome = try await session.perform("org.example.navtest.keep")
            #expect(outcome.state == .completed)
            #expect(await ranInApp.runs.isEmpty)
            #expect(try await session.perform("com.example.app.read-later") == .completed)
            #expect(await ranInApp.runs.count == 1)
        }

        // Exclusions reach the broker and bind the session.
        try await withLoopbackServer { server in
            let session = server.session(
                "/page/b", configuration: NavigationConfiguration(excludedActivities: ["category:share"]),
                offering: proxy, opener: RecordingOpener())
            try await session.start()
            #expect(try await session.actionActivities().all.map(\.id) == ["org.example.navtest.keep"])
            await #expect {
                _ = try await session.perform("org.example.navtest.send")
            } throws: { error in
                if case NavigationError.notOffered = error { return true }
                return false
            }
        }
    }
}
