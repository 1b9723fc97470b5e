// Requirements and candidates seen through the real broker: PATH and bus names changing at run
// time, candidate choice by environment, dbus manifests, and the default locale.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Availability, candidates and dbus manifests")
struct AvailabilityTests {
    static let url = "https://example.org/avail-secret"

    @Test("An executable appearing on PATH makes its activity available without a restart")
    func executableAppears() async throws {
        let f = try await BrokerFixture(builtin: [
            "late.json": TestManifest.json(id: "org.test.late", requires: #"{"executables": ["late-tool"]}"#)
        ])
        #expect(try await f.offered(Self.url) == [])
        #expect(try await f.registered()["org.test.late"]?["available"] == .boolean(false))
        try f.write("#!/bin/sh\nexit 0\n", to: "bin/late-tool", mode: 0o755)
        try await waitUntil("org.test.late to become available") {
            try await f.offered(Self.url) == ["org.test.late"]
        }
        try FileManager.default.removeItem(atPath: "\(f.root)/bin/late-tool")
        try await waitUntil("org.test.late to become unavailable") { try await f.offered(Self.url) == [] }
    }

    @Test("A required bus name gaining and losing its owner shows and hides the activity")
    func busNameRequirement() async throws {
        let f = try await BrokerFixture(builtin: [
            "needs.json": TestManifest.json(
                id: "org.test.needs", requires: #"{"dbus_names": ["org.test.Needed"]}"#)
        ])
        #expect(try await f.offered(Self.url) == [])
        #expect(
            await f.errorName(
                "Perform", [.string("org.test.needs"), .vardict(["url": .string(Self.url)]), .vardict([:])])
                == BrokerFixture.errorPrefix + "Unavailable")
        let service = try f.bus.connect()
        #expect(try await service.requestName("org.test.Needed") == .primaryOwner)
        try await waitUntil("org.test.needs to become available") {
            try await f.offered(Self.url) == ["org.test.needs"]
        }
        service.close()
        try await waitUntil("org.test.needs to go") { try await f.offered(Self.url) == [] }
    }

    @Test("candidates: the first whose program is on PATH and whose env holds is used")
    func candidates() async throws {
        let f = try await BrokerFixture(start: false)
        let out = f.output("candidate")
        for name in ["wl-fake", "x-fake"] {
            try f.write(
                "#!/bin/sh\nprintf '%s' \(name) > \(out)\ncat >> \(out)\n", to: "bin/\(name)", mode: 0o755)
        }
        try f.write(
            TestManifest.json(
                id: "org.test.copy", category: "action",
                perform: #"""
                    {"candidates": [
                      {"exec": ["wl-fake"], "stdin": ":{url}", "env": ["WAYLAND_DISPLAY"]},
                      {"exec": ["missing-fake"], "stdin": ":{url}", "env": ["DISPLAY"]},
                      {"exec": ["x-fake"], "stdin": ":{url}", "env": ["DISPLAY"]}
                    ]}
                    """#),
            to: "builtin/copy.json")
        f.extraEnvironment.value = ["DISPLAY": ":0"]
        try await f.startBroker()
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.copy", ["url": .string(Self.url)])
        #expect(try await f.finished(job, in: finished).state == "completed")
        #expect(f.read(out) == "x-fake:\(Self.url)")

        // With neither variable set, no candidate holds: unavailable, with a reason.
        #expect(try await f.stopBroker() == .exited(0))
        f.extraEnvironment.value = [:]
        try await f.startBroker()
        #expect(try await f.offered(Self.url) == [])
        #expect(try await f.registered()["org.test.copy"]?["reason"]?.string?.isEmpty == false)
        #expect(f.logOmits("avail-secret"))
    }

    @Test("A dbus manifest calls Provider1.Perform on the named service")
    func dbusManifest() async throws {
        let f = try await BrokerFixture(builtin: [
            "app.json": TestManifest.json(
                id: "org.test.app", perform: #"{"dbus": {"name": "org.test.App", "path": "/test/provider"}}"#,
                requires: #"{"dbus_names": ["org.test.App"]}"#)
        ])
        let provider = try TestProvider(bus: f.bus) { _ in
            .reply(state: "completed", results: ["ok": .boolean(true)])
        }
        #expect(try await provider.connection.requestName("org.test.App") == .primaryOwner)
        try await waitUntil("org.test.app to become available") {
            try await f.offered(Self.url) == ["org.test.app"]
        }
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.app", ["url": .string(Self.url)])
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "completed")
        #expect(end.results == ["ok": .boolean(true)])
        #expect(try await provider.calls.next().items["url"] == .string(Self.url))
    }

    @Test("A provider that answers nonsense or exports nothing fails the job with ProviderFailed")
    func badProviders() async throws {
        let f = try await BrokerFixture()
        let provider = try TestProvider(bus: f.bus) { _ in .reply(state: "running", results: [:]) }
        try await f.register("org.test.nonsense", on: provider.connection)
        try await f.register("org.test.nothing", objectPath: "/nothing/here", on: provider.connection)
        let finished = f.finishedSignals()
        for id in ["org.test.nonsense", "org.test.nothing"] {
            let job = try await f.perform(id, ["url": .string(Self.url)])
            let end = try await f.finished(job, in: finished)
            #expect(end.state == "failed", "\(id)")
            #expect(end.results["error"] == .string(BrokerFixture.errorPrefix + "ProviderFailed"), "\(id)")
        }
        #expect(f.logOmits("avail-secret"))
    }

    @Test("An exec job past its timeout fails with Timeout and its child is killed")
    func execTimeout() async throws {
        let f = try await BrokerFixture(start: false)
        let pidFile = f.output("pid")
        try f.write(
            TestManifest.json(
                id: "org.test.slow",
                perform: TestManifest.exec([
                    "/bin/sh", "-c",
                    "echo $$ > \(pidFile).part; mv \(pidFile).part \(pidFile); exec sleep 120",
                ])),
            to: "builtin/slow.json")
        try await f.startBroker()
        let finished = f.finishedSignals()
        // 10 s, not 1 s: the child must have started and written its pid before the timeout
        // kills it, and starting a shell can take longer than 1 s on a loaded machine.
        let job = try await f.perform(
            "org.test.slow", ["url": .string(Self.url)], options: ["timeout": .uint32(10)])
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "failed")
        #expect(end.results["error"] == .string(BrokerFixture.errorPrefix + "Timeout"))
        let pid = try #require(pid_t((f.read(pidFile) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)))
        try await waitUntil("the child \(pid) to be gone") { kill(pid, 0) != 0 && errno == ESRCH }
    }

    @Test("A caller leaving before its job ends does not disturb the broker")
    func callerLeaves() async throws {
        let f = try await BrokerFixture(builtin: [
            "wait.json": TestManifest.json(
                id: "org.test.wait", perform: TestManifest.exec(["/bin/sh", "-c", "sleep 0.2"]))
        ])
        let caller = try f.bus.connect()
        _ = try await f.perform("org.test.wait", ["url": .string(Self.url)], on: caller)
        caller.close()
        // Its properties are the caller's alone, so the log tells how it ended.
        try await waitUntil("the job to complete") { f.log.contains("org.test.wait completed") }
        #expect(f.broker.termination == nil)
        #expect(try await f.offered(Self.url) == ["org.test.wait"])
    }

    @Test("Without a locale option, names follow the broker's LC_ALL / LC_MESSAGES / LANG")
    func defaultLocale() async throws {
        let f = try await BrokerFixture(start: false)
        try f.write(
            TestManifest.json(id: "org.test.m", name: "Copy", names: ["de": "Kopieren"]), to: "builtin/m.json"
        )
        f.extraEnvironment.value = ["LANG": "de_DE.UTF-8"]
        try await f.startBroker()
        #expect(try await f.offeredRecords(Self.url).first?["name"] == .string("Kopieren"))
        #expect(
            try await f.offeredRecords(Self.url, options: ["locale": .string("en")]).first?["name"]
                == .string("Copy"))
    }

    @Test(
        "An activatable bus name meets dbus_names; a service that fails to start fails the job with ProviderFailed"
    )
    func activatableProvider() async throws {
        let f = try await BrokerFixture(start: false, serviceDirectory: true)
        try f.write(
            "[D-BUS Service]\nName=org.test.Broken\nExec=/bin/false\n", to: "services/org.test.Broken.service"
        )
        try f.write(
            TestManifest.json(
                id: "org.test.broken",
                perform: #"{"dbus": {"name": "org.test.Broken", "path": "/org/test/Broken"}}"#,
                requires: #"{"dbus_names": ["org.test.Broken"]}"#),
            to: "builtin/broken.json")
        try await f.startBroker()
        #expect(try await f.offered(Self.url) == ["org.test.broken"])
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.broken", ["url": .string(Self.url)])
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "failed")
        #expect(
            end.results["error"] == .string(BrokerFixture.errorPrefix + "ProviderFailed"), "\(end.results)")
        #expect(f.broker.termination == nil)
    }
}
