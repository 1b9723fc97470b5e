// The share binary end to end against a real broker: every subcommand, and every exit status of API.md §8.
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.timeLimit(.minutes(2))) struct ShareCommandTests {
    // MARK: Subcommands

    @Test func listPrintsTheOfferedActivitiesAligned() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let run = try await broker.share(["list", "https://example.org"])
        #expect(run.status == 0, "\(run.errors)")
        let ids = run.lines.map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(ids == ["test.alpha", "test.beta", "test.fails", "test.gamma", "test.sleeper"])
        #expect(run.lines.first?.contains("Alpha") == true)
        #expect(run.lines.first?.contains("share") == true)
        #expect(run.lines.last?.contains("action") == true)
        // The id column starts at the same place on every line.
        let columns = Set(
            run.lines.map { line in
                line.distance(from: line.startIndex, to: line.range(of: "test.")!.lowerBound)
            })
        #expect(columns.count == 1, "\(run.output)")
    }

    @Test func listAlignsWideLocalizedNames() async throws {
        let bus = try await TestBus.start()
        let broker = try await BrokerHarness(
            bus: bus,
            manifests: [
                "wide.json": """
                {"id": "test.wide", "name": "Wide", "names": {"ja": "共有する名前"}, "category": "share",
                 "perform": {"open": "https://wide.example/?u={url}"}}
                """,
                "narrow.json": openManifest(
                    id: "test.narrow", name: "Narrow", template: "https://n.example/?u={url}"),
            ])
        defer { broker.stopInBackground() }
        let run = try await broker.share(["list", "https://example.org", "--locale", "ja"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("共有する名前"))
        let columns = Set(
            run.lines.map { line in displayWidth(String(line[..<line.range(of: "test.")!.lowerBound])) })
        #expect(columns.count == 1, "ids in one column on a terminal:\n\(run.output)")
    }

    /// Regression: names registered by other programs reached the terminal raw, escape sequences and all.
    @Test func namesFromOtherProgramsCannotDriveTheTerminal() async throws {
        let broker = try await BrokerHarness(
            bus: TestBus.start(),
            manifests: [
                "evil.json": """
                {"id": "test.evil", "name": "Evil\\u001b]0;owned\\u0007\\u001b[2J Name", "category": "share",
                 "requires": {"executables": ["no-such-program-for-share-tests"]},
                 "perform": {"open": "https://evil.example/?u={url}"}}
                """,
                "shown.json": """
                {"id": "test.shown", "name": "Shown\\u001b[31m Red", "category": "share",
                 "perform": {"open": "https://shown.example/?u={url}"}}
                """,
            ])
        defer { broker.stopInBackground() }
        let list = try await broker.share(["list", "https://example.org"])
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output.contains("Shown"))
        let activities = try await broker.share(["activities"])
        #expect(activities.output.contains("Evil"))
        for output in [list.output, activities.output] {
            #expect(
                !output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 },
                "\(output.debugDescription)")
        }
        let json = try await broker.share(["activities", "--json"])
        let records = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(
            records.contains { ($0["name"] as? String)?.contains("\u{1b}") == true },
            "JSON keeps the name as it is")
    }

    @Test func listJSONIsAnArrayOfRecordsAndStable() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let run = try await broker.share(["list", "https://example.org", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let records = try #require(
            try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
        #expect(
            records.compactMap { $0["id"] as? String } == [
                "test.alpha", "test.beta", "test.fails", "test.gamma", "test.sleeper",
            ])
        for record in records {
            #expect(Set(record.keys) == ["id", "name", "icon", "category", "origin"], "\(record)")
            #expect(record["origin"] as? String == "builtin")
        }
        #expect(records.first?["category"] as? String == "share")
        let again = try await broker.share(["list", "https://example.org", "--json"])
        #expect(again.output == run.output, "the same input gives the same bytes")
    }

    @Test func listForAURLNothingAppliesTo() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let run = try await broker.share(["list", "gopher://example.org/"])
        #expect(run.status == 0)
        #expect(run.output.contains("No activity applies"))
        let json = try await broker.share(["list", "gopher://example.org/", "--json"])
        #expect(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [Any] != nil)
        #expect(json.output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func activitiesListsEveryActivityWithTheReason() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let run = try await broker.share(["activities"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.lines.count == shareTestManifests.count)
        let missing = try #require(run.lines.first { $0.contains("test.missing") })
        #expect(missing.hasPrefix("unavailable"))
        #expect(missing.contains("no-such-program-for-share-tests"), "names what is missing")
        let files = try #require(run.lines.first { $0.contains("test.files") })
        #expect(files.hasPrefix("available"), "not offered for https, but available")

        let json = try await broker.share(["activities", "--json"])
        #expect(json.status == 0)
        let records = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(records.count == shareTestManifests.count)
        let record = try #require(records.first { $0["id"] as? String == "test.missing" })
        #expect(record["available"] as? Bool == false)
        #expect((record["reason"] as? String)?.contains("no-such-program-for-share-tests") == true)
        #expect(records.first { $0["id"] as? String == "test.alpha" }?["available"] as? Bool == true)
    }

    @Test func explainSaysWhyAndWhyNot() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let offered = try await broker.share(["explain", "test.alpha", "https://example.org"])
        #expect(offered.status == 0)
        #expect(offered.output.contains("test.alpha is offered"))
        let notOffered = try await broker.share(["explain", "test.files", "https://example.org"])
        #expect(notOffered.status == 1, "exit 1 when not offered")
        #expect(notOffered.output.contains("test.files is not offered"))
        #expect(notOffered.output.contains("ftp"), "names the rule: \(notOffered.output)")
        let unknown = try await broker.share(["explain", "test.no-such", "https://example.org"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("test.no-such"))
    }

    @Test func performingAnActivityByID() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let run = try await broker.share([
            "https://example.org/a?b=c", "--title", "Hello & bye", "--activity", "test.alpha",
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("Sent with Alpha"))
        let opened = try #require(broker.opened.first)
        #expect(broker.opened.count == 1)
        #expect(
            opened.hasPrefix("https://alpha.example/share?u=https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc&t="),
            "\(opened)")
        #expect(opened.hasSuffix("&t=Hello%20%26%20bye"), "\(opened)")
    }

    @Test func helpVersionAndCompletions() async throws {
        let environment = ProcessInfo.processInfo.environment
        let help = try await runShare(["--help"], environment: environment)
        #expect(help.status == 0)
        #expect(help.output.contains("Usage:"))
        #expect(help.output.contains("share list URL"))
        #expect(help.output.contains("Exit status"))

        let version = try await runShare(["--version"], environment: environment)
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("share "))

        let bash = try await runShare(["--completions", "bash"], environment: environment)
        #expect(bash.status == 0)
        #expect(bash.output.contains("complete -F _share share"))
        let temporary = try TemporaryDirectory(prefix: "share-completion")
        defer { temporary.remove() }
        let script = temporary.file("share.bash")
        try bash.output.write(toFile: script, atomically: true, encoding: .utf8)
        let syntax = try await ChildProcess.run("/bin/bash", ["-n", script])
        #expect(syntax.termination == .exited(0), "bash -n: \(syntax.standardError)")

        let zsh = try await runShare(["--completions", "zsh"], environment: environment)
        #expect(zsh.status == 0)
        #expect(zsh.output.hasPrefix("#compdef share"))
    }

    @Test func completionIDsComeFromTheBroker() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let run = try await broker.share(["__complete-ids"])
        #expect(run.status == 0)
        #expect(
            Set(run.lines)
                == Set(
                    ["alpha", "beta", "gamma", "fails", "sleeper", "files", "missing"].map { "test." + $0 }))
    }

    @Test func bashCompletionOffersSubcommandsAndActivityIDs() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        var environment = broker.environment
        environment["PATH"] = BuiltProducts.directory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        func complete(_ words: [String]) async throws -> [String] {
            let script = """
                eval "$(share --completions bash)"
                COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
                _share; printf '%s\\n' "${COMPREPLY[@]}"
                """
            let run = try await ChildProcess.run("/bin/bash", ["-c", script], environment: environment)
            #expect(run.termination == .exited(0), "\(run.standardError)")
            return run.standardOutput.split(separator: "\n").map(String.init)
        }
        #expect(try await complete(["share", "li"]) == ["list"])
        #expect(try await complete(["share", "https://example.org", "--activity", "test.a"]) == ["test.alpha"])
        #expect(Set(try await complete(["share", "explain", "test.f"])) == ["test.fails", "test.files"])
    }

    // MARK: Exit statuses

    @Test func exit1WhenTheActivityFails() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let run = try await broker.share(["https://example.org", "--activity", "test.fails"])
        #expect(run.status == 1)
        #expect(run.errors.contains("Fails failed"), "names the activity on stderr: \(run.errors)")
        #expect(run.errors.contains("status 1"), "says why: \(run.errors)")
        #expect(!run.output.contains("Fails"), "standard output holds successes only: \(run.output)")
    }

    @Test(arguments: [
        (["--bogus"], "--bogus"),
        (["list"], "missing argument"),
        (["https://example.org", "https://example.com"], "https://example.com"),
        (["not-a-url", "--activity", "test.alpha"], "not-a-url"),
        (["list", "example.org"], "example.org"),
        (["https://example.org", "--activity", "test.no-such"], "test.no-such"),
        (["ftp://example.org/x", "--activity", "test.alpha"], "test.alpha"),
    ])
    func exit2ForBadUsageOrInput(arguments: [String], named: String) async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let run = try await broker.share(arguments)
        #expect(run.status == 2, "\(arguments): \(run.errors)")
        #expect(run.errors.contains(named), "the message names what is wrong: \(run.errors)")
        #expect(broker.opened.isEmpty)
    }

    // MARK: The desktop's share sheet

    /// A broker with the share test manifests in a graphical session (DISPLAY set for it and
    /// for share), and a recording sheet service unless `sheet` is false.
    static func sheetBroker(sheet: Bool = true) async throws -> (BrokerHarness, RecordingSheet?) {
        let broker = try await BrokerHarness(
            bus: TestBus.start(), manifests: shareTestManifests, start: false)
        broker.extraEnvironment.withLock { $0["DISPLAY"] = ":77" }
        try await broker.start()
        return (broker, sheet ? try await RecordingSheet(bus: broker.bus) : nil)
    }

    @Test func sheetPerformsTheChoiceAndExits0() async throws {
        let (broker, sheet) = try await Self.sheetBroker()
        defer { broker.stopInBackground() }
        let run = Task { try await broker.share(["sheet", "https://example.org/sheet", "--title", "Sheet title"]) }
        let show = try await sheet!.shows.next("Show")
        #expect(show.parentWindow == "")
        #expect(show.items["title"]?.string == "Sheet title")
        #expect(show.activityIDs == ["test.alpha", "test.beta", "test.fails", "test.gamma", "test.sleeper"])
        show.choose("test.alpha")
        let result = try await run.value
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output == "Sent with Alpha\n", "the same line as the picker's: \(result.output)")
        #expect(broker.opened.first?.hasPrefix("https://alpha.example/share?u=https%3A%2F%2Fexample.org%2Fsheet") == true)
    }

    @Test func sheetExitStatusesFollowTheJob() async throws {
        let (broker, sheet) = try await Self.sheetBroker()
        defer { broker.stopInBackground() }
        let dismissed = Task { try await broker.share(["sheet", "https://example.org"]) }
        try await sheet!.shows.next("Show").dismiss()
        #expect(try await dismissed.value.status == 130)
        let failing = Task { try await broker.share(["sheet", "https://example.org"]) }
        try await sheet!.shows.next("the second Show").choose("test.fails")
        let failed = try await failing.value
        #expect(failed.status == 1)
        #expect(failed.errors.contains("Fails failed"), "\(failed.errors)")
        #expect(try await broker.share(["sheet", "gopher://example.org/"]).status == 2)
    }

    @Test func shareWithoutATerminalInAGraphicalSessionUsesTheSheet() async throws {
        let (broker, sheet) = try await Self.sheetBroker()
        defer { broker.stopInBackground() }
        // share's standard input and output are not terminals here, and DISPLAY is set.
        let run = Task { try await broker.share(["https://example.org/no-terminal"]) }
        try await sheet!.shows.next("Show").choose("test.gamma")
        let result = try await run.value
        #expect(result.status == 0, "\(result.errors)")
        #expect(!result.output.contains("test.alpha"), "no list printed: \(result.output)")
    }

    @Test func withoutASheetServiceShareFallsBackToTheListAndSheetFails() async throws {
        let (broker, _) = try await Self.sheetBroker(sheet: false)
        defer { broker.stopInBackground() }
        let run = try await broker.share(["https://example.org"])
        #expect(run.status == 2)
        #expect(run.output.contains("test.alpha"), "the list, as without a desktop: \(run.output)")
        let sheet = try await broker.share(["sheet", "https://example.org"])
        #expect(sheet.status == 1)
        #expect(sheet.errors.contains("share sheet"), "says the sheet is missing: \(sheet.errors)")
    }

    @Test func exit2WithoutATerminalToPickOn() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let run = try await broker.share(["https://example.org"])
        #expect(run.status == 2)
        #expect(run.errors.contains("--activity"), "says what to do: \(run.errors)")
        #expect(broker.opened.isEmpty)
    }

    @Test func exit2WhenNothingAppliesToTheURL() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let run = try await broker.share(["gopher://example.org/"])
        #expect(run.status == 2)
        #expect(run.errors.contains("gopher://example.org/"), "\(run.errors)")
    }

    @Test func exit3WhenTheBusSocketDoesNotExist() async throws {
        let address = "unix:path=/tmp/share-test-\(UInt32.random(in: 0...UInt32.max))/missing-bus"
        let run = try await runShare(
            ["--bus", address, "list", "https://example.org"],
            environment: ProcessInfo.processInfo.environment)
        #expect(run.status == 3)
        #expect(run.errors.contains(address), "names the address tried: \(run.errors)")
    }

    @Test func exit3WhenNoBrokerIsOnTheSessionBus() async throws {
        let bus = try await TestBus.start()
        let run = try await runShare(["list", "https://example.org"], environment: bus.environment)
        #expect(run.status == 3)
        #expect(run.errors.contains(bus.address), "names the address tried: \(run.errors)")
    }

    @Test func exit130WhenInterruptedAndTheJobIsCancelled() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let share = try ChildProcess(
            executable: try BuiltProducts.executable("share"),
            arguments: ["--bus", broker.bus.address, "https://example.org", "--activity", "test.sleeper"],
            environment: broker.shareEnvironment)
        var pid: pid_t = 0
        try await waitUntil("the activity to start") {
            pid =
                pid_t(
                    ((try? String(contentsOfFile: broker.sleeperPIDFile, encoding: .utf8)) ?? "")
                        .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            return pid > 0
        }
        #expect(Glibc.kill(pid, 0) == 0, "the activity's process runs")
        share.send(SIGINT)
        #expect(try await share.exit() == .exited(130), "\(share.standardError)")
        try await waitUntil("the activity's process to be killed") {
            // Dead: gone, or a zombie its parent has not collected yet (killed all the same).
            (Glibc.kill(pid, 0) != 0 && errno == ESRCH) || processState(pid) == "Z"
        }
        try await waitUntil("the broker to log the cancel") { broker.log.contains("test.sleeper cancelled") }
    }

    /// Regression: with a broker that did not answer the cancel, Ctrl-C did nothing more and
    /// share could only be killed; a second interrupt now exits 130 at once.
    @Test func aSecondInterruptExits130WithoutWaitingForTheBroker() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let share = try ChildProcess(
            executable: try BuiltProducts.executable("share"),
            arguments: ["--bus", broker.bus.address, "https://example.org", "--activity", "test.sleeper"],
            environment: broker.shareEnvironment)
        var pid: pid_t = 0
        try await waitUntil("the activity to start") {
            pid =
                pid_t(
                    ((try? String(contentsOfFile: broker.sleeperPIDFile, encoding: .utf8)) ?? "")
                        .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            return pid > 0
        }
        Glibc.kill(broker.pid, SIGSTOP)
        defer { Glibc.kill(broker.pid, SIGCONT) }
        // The stop takes effect when the kernel next delivers signals to the broker.
        try await waitUntil("the broker to stop") { processState(broker.pid) == "T" }
        share.send(SIGINT)
        _ = try await share.nextLine(in: .standardError) { $0.contains("cancelling") }
        #expect(share.termination == nil, "still waiting for the broker")
        share.send(SIGINT)
        #expect(try await share.exit() == .exited(130), "\(share.standardError)")
        // The cancel was sent: once the broker runs again, it ends the activity.
        Glibc.kill(broker.pid, SIGCONT)
        try await waitUntil("the activity's process to be killed") {
            // Dead: gone, or a zombie its parent has not collected yet (killed all the same).
            (Glibc.kill(pid, 0) != 0 && errno == ESRCH) || processState(pid) == "Z"
        }
    }
}

/// Terminal columns of `text`: East Asian wide characters take two.
func displayWidth(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { width, scalar in
        let v = scalar.value
        let wide =
            (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v)
        return width + (wide ? 2 : 1)
    }
}
