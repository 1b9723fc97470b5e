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
        let bus = try TestBus()
        defer { bus.stop() }
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let extensions = root.appendingPathComponent("extensions")
        try FileManager.default.createDirectory(at: extensions, withIntermediateDirectories: true)
        try Self.manifest(id: "org.example.navtest.send", name: "Send", category: "share")
            .write(to: extensions.appendingPathComponent("send.json"), atomically: true, encoding: .utf8)
        try Self.manifest(id: "org.example.navtest.keep", name: "Keep", category: "action")
            .write(to: extensions.appendingPathComponent("keep.json"), atomically: true, encoding: .utf8)

        // The broker must see only our manifests: empty XDG directories of its own.
        var environment = bus.environment
        environment["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
        environment["XDG_DATA_DIRS"] = root.appendingPathComponent("system").path
        environment["XDG_STATE_HOME"] = root.appendingPathComponent("state").path
        let daemon = try ChildProcess(
            executable: BuiltProducts.executable("activity-broker"),
            arguments: ["--bus", bus.address, "--extensions-dir", extensions.path], environment: environment)
        defer {
            daemon.terminate()
            _ = try? daemon.waitForExit()
        }
        let proxy = try BrokerProxy.connect(bus: .address(bus.address))
        try await waitUntil("the broker on the bus", deadline: .seconds(20)) {
            (try? await proxy.version()) != nil
        }

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
