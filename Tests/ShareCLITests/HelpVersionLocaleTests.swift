// Per-command help, `share help`, --version on every executable, `explain` exit status and JSON, and the locale from the environment.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct HelpVersionLocaleTests {
    private let environment = ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]

    /// Each command and the options its help must list.
    static let commands: [(String, [String])] = [
        ("list", ["--json", "--locale", "--title", "--bus"]),
        ("activities", ["--json", "--locale", "--extensions-dir", "--bus"]),
        ("explain", ["--json", "--bus"]),
        ("check", ["--bus"]),
        ("browse", ["--bus"]),
        ("open", ["--json", "--bus"]),
        ("sheet", ["--title", "--bus"]),
        ("help", ["--bus"]),
    ]

    @Test(arguments: commands)
    func eachCommandsHelpIsItsOwnAndListsItsOptions(command: String, options: [String]) async throws {
        let overview = try await runShare(["--help"], environment: environment)
        let own = try await runShare([command, "--help"], environment: environment)
        #expect(own.status == 0, "\(own.errors)")
        #expect(own.output != overview.output, "\(command) --help printed the overview")
        #expect(own.output.hasPrefix("share \(command)"), "\(own.output)")
        for option in options { #expect(own.output.contains(option), "\(command) --help lacks \(option)") }
        let viaHelp = try await runShare(["help", command], environment: environment)
        #expect(viaHelp.status == 0)
        #expect(viaHelp.output == own.output)
        let short = try await runShare([command, "-h"], environment: environment)
        #expect(short.output == own.output)
    }

    @Test func shareHelpIsTheOverviewAndNotAURL() async throws {
        let help = try await runShare(["help"], environment: environment)
        #expect(help.status == 0, "\(help.errors)")
        let overview = try await runShare(["--help"], environment: environment)
        #expect(help.output == overview.output)
        for command in Self.commands.map(\.0) { #expect(overview.output.contains("share \(command)")) }
        let unknown = try await runShare(["help", "frobnicate"], environment: environment)
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("no help for 'frobnicate'"))
        let sharing = try await runShare(["help", "share"], environment: environment)
        #expect(sharing.output.contains("--activity") && sharing.output.contains("--text"))
    }

    @Test(arguments: [
        "share", "activity-broker", "activity-reading-list", "activity-qr", "activity-sheet",
        "activity-browser",
        "example-provider",
    ])
    func everyExecutablePrintsTheOneVersion(program: String) async throws {
        let reference = try await runShare(["--version"], environment: environment)
        let version = try #require(
            reference.output.split(separator: " ").last.map { $0.trimmingCharacters(in: .newlines) })
        #expect(!version.isEmpty)
        let run = try await ChildProcess.run(
            try BuiltProducts.executable(program), ["--version"], environment: environment)
        #expect(run.termination == .exited(0), "\(program): \(run.standardError)")
        #expect(run.standardOutput == "\(program) \(version)\n")
    }

    @Test func explainExits1WhenNotOfferedAndSpeaksJSON() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let offered = try await broker.share(["explain", "test.alpha", "https://example.org", "--json"])
        #expect(offered.status == 0)
        let yes = try #require(
            try JSONSerialization.jsonObject(with: Data(offered.output.utf8)) as? [String: Any])
        #expect(yes["id"] as? String == "test.alpha")
        #expect(yes["applies"] as? Bool == true)
        #expect((yes["reason"] as? String)?.isEmpty == false)
        #expect(Set(yes.keys) == ["id", "applies", "reason"])

        let notOffered = try await broker.share(["explain", "test.files", "https://example.org", "--json"])
        #expect(notOffered.status == 1)
        let no = try #require(
            try JSONSerialization.jsonObject(with: Data(notOffered.output.utf8)) as? [String: Any])
        #expect(no["applies"] as? Bool == false)
        #expect((no["reason"] as? String)?.contains("ftp") == true, "\(notOffered.output)")
        let text = try await broker.share(["explain", "test.files", "https://example.org"])
        #expect(text.status == 1)
        #expect(text.output.contains("test.files is not offered"))
    }

    /// The broker names each activity in the locale share asks for: LC_ALL, then LC_MESSAGES,
    /// then LANG (the first non-empty), unless --locale is given.
    @Test func theLocaleComesFromTheEnvironmentInPOSIXOrder() async throws {
        let broker = try await BrokerHarness(
            bus: TestBus.start(),
            manifests: [
                "words.json": """
                {"id": "test.words", "name": "Words", "names": {"de": "Wörter", "fr": "Mots"}, "category": "share",
                 "perform": {"open": "https://words.example/?u={url}"}}
                """
            ])
        defer { broker.stopInBackground() }
        func name(_ variables: [String: String], _ extra: [String] = []) async throws -> String {
            var environment = broker.shareEnvironment
            for key in ["LC_ALL", "LC_MESSAGES", "LANG"] { environment[key] = variables[key] ?? "" }
            let run = try await runShare(
                ["--bus", broker.bus.address, "list", "https://example.org"] + extra, environment: environment
            )
            #expect(run.status == 0, "\(run.errors)")
            return run.lines.first.map { $0.split(separator: " ", omittingEmptySubsequences: true)[2] }.map(
                String.init) ?? ""
        }
        #expect(try await name([:]) == "Words")
        #expect(try await name(["LANG": "de_DE.UTF-8"]) == "Wörter")
        #expect(try await name(["LC_MESSAGES": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"]) == "Mots")
        #expect(try await name(["LC_ALL": "de_AT.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"]) == "Wörter")
        #expect(try await name(["LC_ALL": "C", "LANG": "de_DE.UTF-8"]) == "Words")
        #expect(try await name(["LANG": "de_DE.UTF-8"], ["--locale", "fr"]) == "Mots")

        // The picker's choices too (here its listing without a terminal): they were once in
        // the broker's locale while `share list` gave the terminal's.
        var environment = broker.shareEnvironment
        for key in ["LC_ALL", "LC_MESSAGES"] { environment[key] = "" }
        environment["LANG"] = "de_DE.UTF-8"
        let picker = try await runShare(
            ["--bus", broker.bus.address, "https://example.org"], environment: environment)
        #expect(picker.status == 2, "\(picker.errors)")
        #expect(picker.lines.first?.contains("Wörter") == true, "\(picker.output)")
    }
}
