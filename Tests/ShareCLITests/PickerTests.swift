// The share picker on a real terminal (tmux): choose with the arrow keys, cancel with Esc, terminal restored.
import Foundation
import TestSupport
import Testing

/// A detached tmux server of its own (`-L`, no user config) running one command in a 100×30 pane.
private final class TmuxSession {
    let socket = "share-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let environment: [String: String]

    init(command: String, environment: [String: String]) async throws {
        var environment = environment
        environment["TERM"] = "xterm-256color"
        environment["SHELL"] = "/bin/sh"
        environment.removeValue(forKey: "TMUX")
        self.environment = environment
        let run = try await tmux(["-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", command])
        guard run.termination == .exited(0) else {
            throw MissingFileError(what: "a tmux session: \(run.standardError)")
        }
    }

    @discardableResult
    func tmux(_ arguments: [String]) async throws -> (
        termination: ChildProcess.Termination, standardOutput: String, standardError: String
    ) {
        try await ChildProcess.run(
            "tmux", ["-L", socket] + arguments, environment: environment)
    }

    /// The visible pane.
    func screen() async -> String { (try? await tmux(["capture-pane", "-p"]).standardOutput) ?? "" }

    func send(_ keys: String...) async throws { try await tmux(["send-keys"] + keys) }

    func kill() async { _ = try? await tmux(["kill-server"]) }
}

@Suite(.timeLimit(.minutes(2))) struct PickerTests {
    /// Runs share in tmux; the command records `stty -a` before and after and share's exit status.
    fileprivate func startPicker(_ broker: BrokerHarness, term: String? = nil) async throws -> (
        TmuxSession, String
    ) {
        let directory = broker.root
        let share = try BuiltProducts.executable("share")
        let command = """
            cd '\(directory)'; stty -a > before.tmp; mv before.tmp before; \
            \(term.map { "TERM=\($0) " } ?? "")'\(share)' --bus '\(broker.bus.address)' https://example.org --title Example; \
            echo $? > status.tmp; stty -a > after.tmp; mv after.tmp after; mv status.tmp status
            """
        let session = try await TmuxSession(command: command, environment: broker.shareEnvironment)
        var screen = ""
        do {
            try await waitUntil("the picker on screen", interval: .milliseconds(50)) {
                screen = await session.screen()
                return screen.contains("Enter") && screen.contains("Alpha") && screen.contains("Sleeper")
            }
        } catch {
            await session.kill()
            throw TimeoutError("the picker on screen; the pane shows:\n\(screen)")
        }
        return (session, directory)
    }

    /// share's exit status, once the command wrote it.
    fileprivate func status(in directory: String) async throws -> String {
        var status = ""
        try await waitUntil("share to exit in tmux", interval: .milliseconds(20)) {
            status = (try? String(contentsOfFile: directory + "/status", encoding: .utf8)) ?? ""
            return !status.isEmpty
        }
        return status.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func sttyUnchanged(in directory: String) throws -> Bool {
        let before = try String(contentsOfFile: directory + "/before", encoding: .utf8)
        let after = try String(contentsOfFile: directory + "/after", encoding: .utf8)
        return !before.isEmpty && before == after
    }

    @Test func downEnterPerformsTheSecondActivity() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let (session, directory) = try await startPicker(broker)
        do {
            try await session.send("Down")
            try await waitUntil("the selection to move", interval: .milliseconds(20)) {
                await session.screen().split(separator: "\n").contains {
                    $0.contains("›") && $0.contains("Beta")
                }
            }
            try await session.send("Enter")
            let status = try await status(in: directory)
            let pane = await session.screen()
            #expect(status == "0", "share exited \(status); the pane: \(pane); the broker: \(broker.log)")
            #expect(broker.opened.count == 1)
            #expect(
                broker.opened.first?.hasPrefix("https://beta.example/?u=https%3A%2F%2Fexample.org") == true,
                "\(broker.opened)")
            #expect(try sttyUnchanged(in: directory), "stty -a before and after differ")
        } catch {
            await session.kill()
            throw error
        }
        await session.kill()
    }

    @Test func aDumbTerminalGetsANumberedPrompt() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let (session, directory) = try await startPicker(broker, term: "dumb")
        do {
            #expect(await session.screen().contains("2. Beta"))
            try await session.send("2", "Enter")
            let status = try await status(in: directory)
            let pane = await session.screen()
            #expect(status == "0", "share exited \(status); the pane: \(pane)")
            #expect(broker.opened.first?.hasPrefix("https://beta.example/") == true, "\(broker.opened)")
        } catch {
            await session.kill()
            throw error
        }
        await session.kill()
    }

    @Test func escCancelsWith130AndRestoresTheTerminal() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let (session, directory) = try await startPicker(broker)
        do {
            try await session.send("Escape")
            let status = try await status(in: directory)
            let pane = await session.screen()
            #expect(status == "130", "share exited \(status); the pane: \(pane)")
            #expect(broker.opened.isEmpty, "nothing performed")
            #expect(!broker.log.contains("started"), "no job: \(broker.log)")
            #expect(try sttyUnchanged(in: directory), "stty -a before and after differ")
        } catch {
            await session.kill()
            throw error
        }
        await session.kill()
    }
}

extension PickerTests {
    /// Regression (issue 13): `2` performed at once (and `1` after a second); typing into a
    /// terminal that still showed a picker shared a page. Digits now only select.
    @Test func digitsWithoutEnterPerformNothing() async throws {
        let broker = try await shareTestBroker()
        defer { broker.stopInBackground() }
        let (session, directory) = try await startPicker(broker)
        do {
            try await session.send("2")
            try await waitUntil("the selection to move", interval: .milliseconds(20)) {
                await session.screen().split(separator: "\n").contains {
                    $0.contains("›") && $0.contains("Beta")
                }
            }
            try await session.send("1")
            try await waitUntil("the selection to move back", interval: .milliseconds(20)) {
                await session.screen().split(separator: "\n").contains {
                    $0.contains("›") && $0.contains("Alpha")
                }
            }
            try await session.send("Escape")
            let status = try await status(in: directory)
            #expect(status == "130", "share exited \(status)")
            #expect(broker.opened.isEmpty, "a digit performed: \(broker.opened)")
            #expect(!broker.log.contains("started"), "no job: \(broker.log)")
        } catch {
            await session.kill()
            throw error
        }
        await session.kill()
    }
}
