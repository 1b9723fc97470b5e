// A broker run against a made-up session: the repository's extensions, programs on PATH, desktop entries.
import ActivityBrokerInterface
import DBus
import Foundation
import SystemSupport
import TestSupport

/// TestSupport's `BrokerHarness` with the repository's `extensions/` as its built-in
/// manifests and a recording opener, for the tests of what a desktop session contributes:
/// programs on PATH (candidates), installed applications and mimeapps.list. Everything lives
/// under `root` and goes away with the object; the broker and the bus are stopped on deinit.
final class InstalledSession: @unchecked Sendable {
    let harness: BrokerHarness
    let client: Connection

    var root: String { harness.root }
    var bus: TestBus { harness.bus }
    var home: String { harness.layout.home }
    var dataHome: String { harness.layout.dataHome }
    var configHome: String { harness.layout.configHome }
    var bin: String { harness.layout.bin }
    var records: String { harness.layout.out }

    init() async throws {
        harness = try await BrokerHarness(
            extensionDirectories: [repositoryRoot + "/extensions"], opener: { $0.bin + "/opener" }, start: false)
        client = try harness.bus.connect()
        try FileManager.default.createDirectory(atPath: dataHome + "/applications", withIntermediateDirectories: true)
        _ = try recordingProgram("opener")
    }

    deinit {
        client.close()
        harness.stopInBackground()
    }

    /// Writes a file atomically (creating directories), optionally executable.
    func write(_ path: String, _ contents: String, executable: Bool = false) throws {
        try AtomicFile.write(
            Array(contents.utf8), to: path, permissions: executable ? 0o755 : 0o644, directoryPermissions: 0o755)
    }

    /// A program in `bin` that records its arguments (one a line, via a rename, so the file
    /// appears complete) and its standard input.
    func recordingProgram(_ name: String) throws -> String {
        let path = bin + "/" + name
        try write(
            path,
            """
            #!/bin/sh
            printf '%s\\n' "$@" > '\(records)/\(name).args.part' && /bin/mv '\(records)/\(name).args.part' '\(records)/\(name).args'
            cat > '\(records)/\(name).stdin'
            """, executable: true)
        return path
    }

    /// The arguments `name` recorded, once they are there: an installed application's job
    /// completes when it started, before it wrote anything.
    func awaitRecorded(_ name: String) async throws -> String? {
        try await waitUntil("\(name) to record its arguments") { recorded(name) != nil }
        return recorded(name)
    }

    func recorded(_ name: String, _ kind: String = "args") -> String? {
        try? String(contentsOfFile: "\(records)/\(name).\(kind)", encoding: .utf8)
    }

    /// Starts the broker with `environment` on top of the harness's clean one, under `wrapper`
    /// (a command and its arguments) when one is given.
    func startBroker(environment extra: [String: String] = [:], wrapper: [String] = []) async throws {
        harness.extraEnvironment.value = extra
        try await harness.start(wrapper: wrapper)
    }

    /// The broker's log so far.
    var log: String { harness.log }

    // MARK: - Calls

    func call(_ member: MemberName, _ body: [Value]) async throws -> [Value] {
        try await client.call(
            MethodCall(
                destination: Broker1.busName, path: Broker1.objectPath, interface: Broker1.interface,
                member: member, body: body))
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
        let subscription = client.addMatch(Job1.finished.rule()) {
            finished.put($0)
        }
        defer { client.cancel(subscription) }
        let reply = try await call("Perform", [.string(id), .vardict(["url": .string(url)]), .vardict([:])])
        let path = reply.first?.objectPath
        while true {
            let signal = try await finished.next("Finished of \(id)")
            guard signal.path == path else { continue }
            return (signal.body[0].string ?? "", signal.body[1].vardict ?? [:])
        }
    }
}
