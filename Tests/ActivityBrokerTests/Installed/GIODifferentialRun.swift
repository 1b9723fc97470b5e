// One run of the GIO differential test: the corpus laid out, GIO asked, the real broker asked, both launched.
import ActivityKit
import DBus
import Foundation
import TestSupport

/// The corpus of `Tests/gio-corpus` in a temporary session, with GLib's GIO
/// (`scripts/gio-reference.py`) and the real broker run on the same files, PATH and bus.
///
/// Everything the two did is kept as plain values for `GIODifferentialTests` to compare:
/// the offered set and default per scheme, the names per locale and what each launch ran.
final class GIODifferentialRun: @unchecked Sendable {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let corpus = repository.appendingPathComponent("Tests/gio-corpus").path
    static let script = repository.appendingPathComponent("scripts/gio-reference.py").path
    static let python = "/usr/bin/python3"

    struct Cases: Decodable {
        var current_desktop: String
        var token: String
        var locales: [String]
        var urls: [String: [String]]
    }

    /// What GIO answered (`gio-reference.py query`).
    struct Reference: Decodable {
        struct Scheme: Decodable {
            var all: [String]
            var `default`: String?
        }
        var schemes: [String: Scheme]
        var names: [String: [String: String]]
    }

    /// One offered entry as the broker recorded it: id and name for a locale.
    struct Offer: Hashable {
        var id: String
        var name: String
    }

    let session: InstalledSession
    let cases: Cases
    let environment: [String: String]
    let records: String
    /// The corpus's unreadable subdirectory.
    let locked: String
    private var server: ChildProcess?

    /// GIO's answer.
    private(set) var reference: Reference!
    /// Launch (desktop id, URL) → GIO's record and the broker's record (JSON objects).
    private(set) var launches: [(id: String, url: String, gio: [String: Any], broker: [String: Any])] = []
    /// Scheme → locale → the broker's offers for the scheme's first URL, in order.
    private(set) var offers: [String: [String: [Offer]]] = [:]

    init() async throws {
        session = try await InstalledSession()
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/cases.json"))
        cases = try JSONDecoder().decode(Cases.self, from: data)
        let root = session.root + "/corpus"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for part in ["config-home", "config-dirs", "data-home", "data-dirs"] {
            try FileManager.default.copyItem(atPath: Self.corpus + "/" + part, toPath: root + "/" + part)
        }
        // A subdirectory neither GIO nor the broker can list (git keeps no directory modes).
        locked = root + "/data-home/applications/locked"
        guard chmod(locked, 0) == 0 else { throw TimeoutError("chmod \(locked): errno \(errno)") }
        let bin = root + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let programs = try String(contentsOfFile: Self.corpus + "/programs.txt", encoding: .utf8)
        for program in programs.split(separator: "\n") where !program.isEmpty {
            try session.write(bin + "/" + program, Self.recorder, executable: true)
        }
        records = root + "/records.jsonl"
        var environment = session.bus.environment
        environment["HOME"] = session.home
        environment["XDG_CONFIG_HOME"] = root + "/config-home"
        environment["XDG_CONFIG_DIRS"] = root + "/config-dirs/site"
        environment["XDG_DATA_HOME"] = root + "/data-home"
        environment["XDG_DATA_DIRS"] = root + "/data-dirs/vendor:" + root + "/data-dirs/distro"
        environment["XDG_STATE_HOME"] = session.home + "/.local/state"
        environment["XDG_CURRENT_DESKTOP"] = cases.current_desktop
        // Only the corpus's programs: GIO and the broker look up terminals on PATH too.
        environment["PATH"] = bin
        environment["GIO_USE_VFS"] = "local"
        environment["GIO_DIFF_RECORDS"] = records
        self.environment = environment
    }

    deinit {
        chmod(locked, 0o755)  // so that the session's directory can be removed
        server?.terminate()
        // Reaping blocks: on a thread of its own, not the pool thread that releases the run.
        if let server { BackgroundCleanup.run { _ = try? server.waitForExit(deadline: .seconds(5)) } }
    }

    /// A program that appends its argv (argv[0] as a base name) and working directory to the records.
    static let recorder = """
        #!/usr/bin/python3
        import json, os, sys
        with open(os.environ["GIO_DIFF_RECORDS"], "a") as f:
            f.write(json.dumps({"argv": [os.path.basename(sys.argv[0])] + sys.argv[1:], "cwd": os.getcwd()}) + "\\n")

        """

    /// The records so far, one JSON object each.
    func recorded() -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: records, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// What GIO and the broker run under: as root (CI), `setpriv` without the capabilities
    /// that let root read any directory, so `locked` is refused to both by the kernel as it
    /// would be to its user's programs; as another user, nothing.
    static let wrapper: [String] =
        geteuid() == 0
        ? [
            "/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search",
            "--inh-caps=-dac_override,-dac_read_search", "--",
        ] : []

    /// Serves `org.freedesktop.Application` for the corpus's D-Bus-activatable entries.
    func startApplicationServer(names: [String]) async throws {
        let server = try ChildProcess(
            executable: Self.python, arguments: [Self.script, "serve"] + names, environment: environment)
        self.server = server
        _ = try await server.nextLine(in: .standardOutput) { $0 == "ready" }
    }

    /// The broker's offers for every scheme's first URL in every locale (and without one).
    func askBroker() async throws {
        for (scheme, urls) in cases.urls {
            for locale in cases.locales + [""] {
                var options: [String: Value] = [:]
                if !locale.isEmpty { options["locale"] = .string(locale) }
                let reply = try await session.call(
                    "ListActivities", [.vardict(["url": .string(urls[0])]), .vardict(options)])
                offers[scheme, default: [:]][locale] = (reply.first?.array ?? []).compactMap(\.vardict).map {
                    Offer(id: $0["id"]?.string ?? "", name: $0["name"]?.string ?? "")
                }
            }
        }
    }

    /// Asks GIO, and has it launch every (desktop id, URL) pair; each call replaces the previous answer.
    func askGIO(launching pairs: [(id: String, url: String)]) async throws {
        let request: [String: Any] = [
            "schemes": Array(cases.urls.keys).sorted(), "locales": cases.locales, "token": cases.token,
            "launches": pairs.map { [$0.id, $0.url] },
        ]
        let requestPath = session.root + "/request.json"
        try JSONSerialization.data(withJSONObject: request).write(to: URL(fileURLWithPath: requestPath))
        let before = recorded().count
        let command = Self.wrapper + [Self.python, Self.script, "query", requestPath]
        let (termination, output, errors) = try await ChildProcess.run(
            command[0], Array(command.dropFirst()), environment: environment,
            deadline: .seconds(120))
        guard termination == .exited(0) else {
            throw TimeoutError("gio-reference.py: \(termination): \(errors)")
        }
        reference = try JSONDecoder().decode(Reference.self, from: Data(output.utf8))
        let answer = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let gioLaunches = answer?["launches"] as? [[String: Any]] ?? []
        precondition(recorded().count >= before)
        launches = []
        for (index, pair) in pairs.enumerated() {
            let gio = gioLaunches.count > index ? gioLaunches[index]["record"] as? [String: Any] ?? [:] : [:]
            launches.append((pair.id, pair.url, gio, [:]))
        }
    }

    /// Has the broker perform every launch GIO did, with an activation token, and records what ran.
    func launchWithBroker() async throws {
        for index in launches.indices {
            let before = recorded().count
            let activity = "desktop." + launches[index].id.dropLast(".desktop".count)
            let (state, results) = try await perform(activity, url: launches[index].url)
            // A launch completes once the program started (as GIO's does): its record may follow.
            if state == "completed" {
                try await waitUntil("the record of \(activity)") { recorded().count > before }
            }
            let after = recorded()
            launches[index].broker =
                after.count > before
                ? after[before] : ["error": "\(state): \(results["message"]?.string ?? "")"]
        }
    }

    /// Performs `id` on `url` with the corpus's activation token; returns the `Finished` state and results.
    private func perform(_ id: String, url: String) async throws -> (state: String, results: [String: Value])
    {
        let finished = Inbox<IncomingSignal>()
        let subscription = session.client.addMatch(
            DBus.MatchRule(interface: "org.activitybroker.Job1", member: "Finished")
        ) { finished.put($0) }
        defer { session.client.cancel(subscription) }
        let reply = try await session.call(
            "Perform",
            [
                .string(id), .vardict(["url": .string(url)]),
                .vardict(["activation_token": .string(cases.token)]),
            ])
        let path = reply.first?.objectPath
        while true {
            let signal = try await finished.next("Finished of \(id)")
            guard signal.path == path else { continue }
            return (signal.body[0].string ?? "", signal.body[1].vardict ?? [:])
        }
    }
}
