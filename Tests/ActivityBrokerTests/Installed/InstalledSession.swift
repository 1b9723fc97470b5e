// A broker run against a made-up session: its own bus, home, PATH, desktop entries.
import DBus
import Foundation
import TestSupport

/// A temporary home with XDG directories, a private bus and the real broker started in it.
///
/// Used by the tests of what a desktop session contributes: programs on PATH (candidates),
/// installed applications and mimeapps.list. Everything lives under `root` and goes away
/// with the object; the broker and the bus are stopped on deinit.
final class InstalledSession: @unchecked Sendable {
    let root: String
    let bus: TestBus
    let client: Connection
    private(set) var broker: ChildProcess?

    var home: String { root + "/home" }
    var dataHome: String { home + "/.local/share" }
    var configHome: String { home + "/.config" }
    var bin: String { root + "/bin" }
    var records: String { root + "/records" }

    init() throws {
        var template = Array("/tmp/installed.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TimeoutError("a temporary directory") }
        root = String(cString: made)
        bus = try TestBus()
        client = try bus.connect()
        for directory in [dataHome + "/applications", configHome, bin, records, root + "/system"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
    }

    deinit {
        broker?.terminate()
        _ = try? broker?.waitForExit(deadline: .seconds(5))
        if broker != nil { BrokerSlots.shared.release() }
        client.close()
        bus.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Writes a file (creating directories), optionally executable.
    func write(_ path: String, _ contents: String, executable: Bool = false) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        if executable { chmod(path, 0o755) }
    }

    /// A program in `bin` that records its arguments (one a line) and its standard input.
    func recordingProgram(_ name: String) throws -> String {
        let path = bin + "/" + name
        try write(
            path,
            """
            #!/bin/sh
            printf '%s\\n' "$@" > '\(records)/\(name).args'
            cat > '\(records)/\(name).stdin'
            """, executable: true)
        return path
    }

    func recorded(_ name: String, _ kind: String = "args") -> String? {
        try? String(contentsOfFile: "\(records)/\(name).\(kind)", encoding: .utf8)
    }

    /// Starts the broker with the repository's extensions/ and `environment` on top of a clean one.
    func startBroker(environment extra: [String: String] = [:]) async throws {
        var environment = bus.environment
        environment["HOME"] = home
        environment["XDG_DATA_HOME"] = dataHome
        environment["XDG_CONFIG_HOME"] = configHome
        environment["XDG_STATE_HOME"] = home + "/.local/state"
        environment["XDG_DATA_DIRS"] = root + "/system"
        environment["XDG_CONFIG_DIRS"] = root + "/system-config"
        environment["PATH"] = bin + ":/usr/bin:/bin"
        environment.merge(extra) { _, new in new }
        let extensions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("extensions").path
        await BrokerSlots.shared.acquire()
        let process: ChildProcess
        do {
            process = try ChildProcess(
                executable: try BuiltProducts.executable("activity-broker"),
                arguments: ["--extensions-dir", extensions, "--opener", try recordingProgram("opener")],
                environment: environment)
        } catch {
            BrokerSlots.shared.release()
            throw error
        }
        broker = process
        _ = try await process.nextLine(in: .standardError) { $0.contains("owns org.activitybroker.Broker1") }
    }

    /// The broker's log so far.
    var log: String { broker?.standardError ?? "" }

    // MARK: - Calls

    func call(_ member: MemberName, _ body: [Value]) async throws -> [Value] {
        try await client.call(
            MethodCall(
                destination: "org.activitybroker.Broker1", path: "/org/activitybroker/Broker1",
                interface: "org.activitybroker.Broker1", member: member, body: body))
    }

    /// The ids `ListActivities` offers for `url`, in order.
    func offered(_ url: String, locale: String? = nil) async throws -> [String] {
        var options: [String: Value] = [:]
        if let locale { options["locale"] = .string(locale) }
        let reply = try await call("ListActivities", [.vardict(["url": .string(url)]), .vardict(options)])
        return (reply.first?.array ?? []).compactMap { $0.vardict?["id"]?.string }
    }

    /// The record of `id` in `ListActivities` for `url`.
    func record(_ id: String, for url: String, locale: String? = nil) async throws -> [String: Value]? {
        var options: [String: Value] = [:]
        if let locale { options["locale"] = .string(locale) }
        let reply = try await call("ListActivities", [.vardict(["url": .string(url)]), .vardict(options)])
        return (reply.first?.array ?? []).compactMap(\.vardict).first { $0["id"]?.string == id }
    }

    /// `ListRegistered`'s record of `id`.
    func registered(_ id: String) async throws -> [String: Value]? {
        let reply = try await call("ListRegistered", [.vardict([:])])
        return (reply.first?.array ?? []).compactMap(\.vardict).first { $0["id"]?.string == id }
    }

    /// Performs `id` on `url` and returns the `Finished` state and results.
    func perform(_ id: String, url: String) async throws -> (state: String, results: [String: Value]) {
        let finished = Inbox<IncomingSignal>()
        let subscription = client.addMatch(DBus.MatchRule(interface: "org.activitybroker.Job1", member: "Finished")) {
            finished.put($0)
        }
        defer { client.cancel(subscription) }
        let reply = try await call("Perform", [.string(id), .vardict(["url": .string(url)]), .vardict([:])])
        let path = reply.first?.objectPath
        while true {
            let signal = try await finished.next("Finished of \(id)", deadline: .seconds(10))
            guard signal.path == path else { continue }
            return (signal.body[0].string ?? "", signal.body[1].vardict ?? [:])
        }
    }
}
