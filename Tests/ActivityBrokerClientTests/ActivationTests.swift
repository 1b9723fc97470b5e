// A client on a session where the broker is not running yet: the first call starts it by D-Bus activation.
import ActivityBrokerClient
import DBus
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct ActivationTests {
    @Test func theFirstPerformStartsTheBrokerAndGetsItsOutcome() async throws {
        let temporary = try TemporaryDirectory(prefix: "broker-activation")
        defer { temporary.remove() }
        let directory = temporary.path
        for sub in ["services", "extensions", "data", "state", "system"] {
            try FileManager.default.createDirectory(
                atPath: directory + "/" + sub, withIntermediateDirectories: true)
        }
        try openManifest(id: "test.web", name: "Web", template: "https://share.example/?u={url}")
            .write(toFile: directory + "/extensions/web.json", atomically: true, encoding: .utf8)
        try "printf '%s\\n' \"$@\" >> '\(directory)/opened'\n"
            .write(toFile: directory + "/opener", atomically: true, encoding: .utf8)
        // Exec is split like a shell word list by dbus-daemon; env(1) sets the broker's XDG dirs.
        let broker = try BuiltProducts.executable("activity-broker")
        try """
        [D-BUS Service]
        Name=org.activitybroker.Broker1
        Exec=/usr/bin/env XDG_DATA_HOME=\(directory)/data XDG_STATE_HOME=\(directory)/state \
        XDG_DATA_DIRS=\(directory)/system \(broker) --extensions-dir \(directory)/extensions \
        --opener "/bin/sh \(directory)/opener"

        """.write(
            toFile: directory + "/services/org.activitybroker.Broker1.service", atomically: true,
            encoding: .utf8)
        let bus = try await TestBus.start(serviceDirectory: directory + "/services")
        defer { bus.stopInBackground() }
        let connection = try bus.connect()
        let client = BrokerProxy(connection: connection, address: bus.address)

        let outcome = try await client.perform("test.web", items: SharedItems(url: "https://example.org"))
        // The broker does not exit with its bus (see BrokerLifetimeTests): end it here.
        let pid = try await connection.unixProcessID(of: "org.activitybroker.Broker1")
        defer { kill(pid_t(pid), SIGTERM) }
        #expect(outcome == .completed)
        #expect(
            try String(contentsOfFile: directory + "/opened", encoding: .utf8)
                == "https://share.example/?u=https%3A%2F%2Fexample.org\n")
    }
}
