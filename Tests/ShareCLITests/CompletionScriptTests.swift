// The bash completion script run in bash: each command's own options, and the broker of a `--bus` on the line.
import Foundation
import TestSupport
import Testing

@testable import ShareCLI

@Suite(.timeLimit(.minutes(2))) struct CompletionScriptTests {
    /// What `_share` leaves in COMPREPLY for `words`, the last one being completed, with the
    /// built `share` first on PATH and `environment`'s session bus.
    static func complete(_ words: [String], environment: [String: String]) async throws -> [String] {
        var environment = environment
        environment["PATH"] = BuiltProducts.directory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        let script = """
            eval "$(share --completions bash)"
            COMP_WORDS=(\(quoted.joined(separator: " "))); COMP_CWORD=\(words.count - 1)
            _share; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let run = try await ChildProcess.run("/bin/bash", ["-c", script], environment: environment)
        #expect(run.termination == .exited(0), "\(run.standardError)")
        return run.standardOutput.split(separator: "\n").map(String.init)
    }

    /// `text` as bash puts it in COMP_WORDS: split at the `:` and `=` of COMP_WORDBREAKS, each
    /// of them a word of its own (`unix:path=/x` is `unix : path = /x`).
    static func splitAtWordBreaks(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character == ":" || character == "=" {
                if !current.isEmpty { words.append(current) }
                words.append(String(character))
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// No broker is asked for options; the session bus leads nowhere.
    static let noBus = [
        "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/session-bus", "PATH": "/usr/bin:/bin",
    ]

    @Test("the bash script offered every option after every command: it offers each command's own")
    func bashOffersEachCommandsOwnOptions() async throws {
        let common = Set(ShareArguments.commonOptions)
        #expect(
            Set(try await Self.complete(["share", "attributions", "--"], environment: Self.noBus))
                == ["--json", "--clear", "--bus", "--help"])
        #expect(
            Set(
                try await Self.complete(
                    ["share", "browse", "https://example.org", "--"], environment: Self.noBus))
                == common)
        // `share URL`, its URL split at the colon as bash splits it.
        #expect(
            Set(
                try await Self.complete(
                    ["share", "https", ":", "//example.org", "--"], environment: Self.noBus))
                == common.union(["--title", "--text", "--activity"]))
        for (command, options) in ShareArguments.commandOptions where command != "share" {
            let offered = try await Self.complete(["share", command, "x", "--"], environment: Self.noBus)
            #expect(Set(offered) == common.union(options), "after \(command)")
        }
        // The command is found after the options before it, a split --bus address included.
        let afterBus =
            ["share", "--bus"] + Self.splitAtWordBreaks("unix:path=/tmp/x,guid=1") + ["explain", "id", "--"]
        #expect(Set(try await Self.complete(afterBus, environment: Self.noBus)) == common.union(["--json"]))
        #expect(
            Set(
                try await Self.complete(
                    ["share", "--title", "T", "list", "u", "--j"], environment: Self.noBus))
                == ["--json"])
        // No command yet: the commands and the options that stand alone.
        #expect(
            try await Self.complete(["share", "--bus", "a", "attr"], environment: Self.noBus) == [
                "attributions"
            ])
    }

    @Test("the table the scripts read is the parser's: one entry per command of the help")
    func optionTableCoversEveryCommand() throws {
        #expect(Set(ShareArguments.commandOptions.map(\.command)) == Set(HelpText.commands.keys))
        for (command, options) in ShareArguments.commandOptions {
            for option in options {
                #expect(
                    HelpText.commands[command]?.contains(option) == true, "\(command)'s help lacks \(option)")
            }
        }
        #expect(
            try ShareArguments.parse(["attributions", "--clear", "--json"]).invocation
                == .attributions(json: true, clear: true))
        #expect(throws: ShareUsageError.self) {
            try ShareArguments.parse(["attributions", "--locale", "de"])
        }
    }

    @Test("activity ids came from the session bus though --bus named another: they come from --bus's broker")
    func bashAsksTheBrokerOfAnEarlierBus() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let environment = broker.shareEnvironment
        let address = broker.bus.address
        let split = Self.splitAtWordBreaks(address)
        #expect(
            Set(
                try await Self.complete(
                    ["share", "--bus"] + split + ["explain", "test.f"], environment: environment))
                == ["test.fails", "test.files"])
        #expect(
            try await Self.complete(
                ["share", "--bus", "="] + split + ["https", ":", "//example.org", "--activity", "test.a"],
                environment: environment) == ["test.alpha"])
        #expect(
            try await Self.complete(
                ["share", "--bus", "'\(address)'", "https://example.org", "--activity", "=", "test.a"],
                environment: environment) == ["test.alpha"])
        // Without --bus the session bus is asked, and it leads nowhere.
        #expect(try await Self.complete(["share", "explain", "test.f"], environment: environment) == [])
    }
}
