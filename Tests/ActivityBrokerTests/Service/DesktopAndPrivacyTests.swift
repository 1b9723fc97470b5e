// Installed applications as "Open in" activities through the real broker, and a sweep of every
// kind of perform checking that the shared items never reach the log.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Installed applications and log privacy")
struct DesktopAndPrivacyTests {
    static func desktopEntry(name: String, exec: String, schemes: [String] = ["http", "https"]) -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=\(name)
        Name[de]=\(name) DE
        Exec=\(exec)
        MimeType=\(schemes.map { "x-scheme-handler/\($0)" }.joined(separator: ";"));text/html;

        """
    }

    @Test(
        "A desktop entry handling https is an 'Open in' action, launched without a shell; the default ranks first"
    )
    func installedApplications() async throws {
        let f = try await BrokerFixture(start: false)
        let out = f.output("desktop")
        try FileManager.default.createDirectory(
            atPath: "\(f.root)/data/applications", withIntermediateDirectories: true)
        try f.write(
            Self.desktopEntry(name: "Alpha Browser", exec: "record \(out) --new %u"),
            to: "data/applications/org.test.alpha.desktop")
        try f.write(
            Self.desktopEntry(name: "Zulu Browser", exec: "record \(out) %U"),
            to: "data/applications/org.test.zulu.desktop")
        try f.write(
            "[Default Applications]\nx-scheme-handler/https=org.test.zulu.desktop\n",
            to: "config/mimeapps.list")
        try await f.startBroker()

        let records = try await f.registered()
        #expect(records["desktop.org.test.alpha"]?["origin"] == .string("desktop"))
        #expect(records["desktop.org.test.alpha"]?["category"] == .string("action"))
        #expect(records["desktop.org.test.alpha"]?["name"] == .string("Open in Alpha Browser"))
        let url = "https://example.org/desk-secret?a=$(touch%20x)&b=;id"
        let offered = try await f.offered(url)
        #expect(offered == ["desktop.org.test.zulu", "desktop.org.test.alpha"], "\(records)")
        #expect(try await f.offered("ftp://example.org/file").isEmpty)

        let finished = f.finishedSignals()
        let job = try await f.perform("desktop.org.test.alpha", ["url": .string(url)])
        #expect(try await f.finished(job, in: finished).state == "completed")
        // The job completed when the program started; its record follows.
        try await waitUntil("the launched entry to record") { f.read(out) != nil }
        #expect(f.read(out) == "2\n--new\n\(url)\n")
        #expect(f.logOmits("desk-secret"))

        // Entries are watched like manifests: a new one shows without a restart.
        try f.write(
            Self.desktopEntry(name: "Mike", exec: "record \(out) %u"),
            to: "data/applications/org.test.mike.desktop")
        try await waitUntil("the new desktop entry") {
            try await f.registered()["desktop.org.test.mike"] != nil
        }
    }

    @Test("Regression: the spec's fallback default for http tied with the mimeapps.list default for https")
    func namedDefaultOutranksFallback() async throws {
        let f = try await BrokerFixture(start: false)
        try FileManager.default.createDirectory(
            atPath: "\(f.root)/data/applications", withIntermediateDirectories: true)
        // "aaa" sorts first, so it is the fallback default for http, where mimeapps.list is silent.
        try f.write(
            Self.desktopEntry(name: "Aaa", exec: "true %u"), to: "data/applications/org.test.aaa.desktop")
        try f.write(
            Self.desktopEntry(name: "Zzz", exec: "true %u"), to: "data/applications/org.test.zzz.desktop")
        try f.write(
            "[Default Applications]\nx-scheme-handler/https=org.test.zzz.desktop\n",
            to: "config/mimeapps.list")
        try await f.startBroker()
        #expect(
            try await f.offered("https://example.org/") == ["desktop.org.test.zzz", "desktop.org.test.aaa"])
    }

    @Test("The log of a verbose broker never holds a shared URL, title or text, whatever happens to the job")
    func logPrivacySweep() async throws {
        let secretURL = "https://example.org/sweep-secret-url?token=sweep-secret-query"
        let secretTitle = "sweep secret title"
        let secretText = "sweep secret text"
        let f = try await BrokerFixture(start: false)
        try f.write("#!/nonexistent/interpreter\n", to: "bin/broken-program", mode: 0o755)
        let manifests: [String: String] = [
            "open.json": TestManifest.json(
                id: "org.test.open",
                perform: #"{"open": "https://share.example/?u={url}&t={title}&x={text}"}"#),
            "exec.json": TestManifest.json(
                id: "org.test.exec",
                perform: TestManifest.exec(["record", f.output("exec"), "{url}", "{title}"], stdin: "{text}")),
            "fails.json": TestManifest.json(
                id: "org.test.fails",
                perform: TestManifest.exec(["/bin/sh", "-c", "echo \"$0\" >&2; exit 4", "{url}"])),
            "cannot.json": TestManifest.json(
                id: "org.test.cannot", perform: TestManifest.exec(["broken-program", "{url}", "{title}"])),
            "slow.json": TestManifest.json(id: "org.test.slow", perform: TestManifest.exec(["sleep", "30"])),
            "tube.json": TestManifest.json(id: "org.test.tube", match: #"{"hosts": ["*.youtube.com"]}"#),
        ]
        for (name, json) in manifests { try f.write(json, to: "builtin/\(name)") }
        try await f.startBroker()
        let provider = try TestProvider(bus: f.bus) { id in
            id == "org.test.pfail"
                ? .fail(DBusError(name: "org.example.Error.X", message: "no"))
                : .reply(state: "completed", results: [:])
        }
        try await f.register("org.test.provider", on: provider.connection)
        try await f.register("org.test.pfail", on: provider.connection)

        let items: [String: Value] = [
            "url": .string(secretURL), "title": .string(secretTitle), "text": .string(secretText),
        ]
        let finished = f.finishedSignals()
        var jobs: [ObjectPath] = []
        for id in [
            "org.test.open", "org.test.exec", "org.test.fails", "org.test.cannot", "org.test.provider",
            "org.test.pfail",
        ] {
            jobs.append(try await f.perform(id, items))
        }
        let slow = try await f.perform("org.test.slow", items)
        for job in jobs { _ = try await f.finished(job, in: finished) }
        try await f.call("Cancel", path: slow, interface: BrokerFixture.jobInterface)
        _ = try await f.finished(slow, in: finished)
        // Refusals, explanations and listings with the secrets in them.
        _ = await f.errorName("Perform", [.string("org.test.tube"), .vardict(items), .vardict([:])])
        _ = await f.errorName("Perform", [.string("org.test.nothing"), .vardict(items), .vardict([:])])
        _ = try await f.call("Explain", [.string("org.test.tube"), .vardict(items)])
        _ = try await f.offered(secretURL)
        _ = await f.errorName(
            "ListActivities", [.vardict(["url": .string("sweep-secret-relative")]), .vardict([:])])
        #expect(try await f.stopBroker() == .exited(0))

        let log = f.log
        #expect(log.contains("job 7"), "the sweep ran: \(log)")
        for secret in ["sweep-secret", "sweep secret", "sweep%20secret", "sweep-secret-query"] {
            #expect(!log.contains(secret), "\(secret) in the log:\n\(log)")
        }
        let usage = f.read(f.usageFile) ?? ""
        #expect(!usage.contains("sweep") && !usage.contains("example.org"))
    }
}
