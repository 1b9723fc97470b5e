// What a failed exec or open job says: the tail of the child's stderr, made safe; the opener's status in words.
import DBus
import Foundation
import SystemSupport
import TestSupport
import Testing

@testable import ActivityBroker

@Suite("failure messages of launched programs")
struct FailureMessageTests {
    static let items: [String: Value] = ["url": .string("https://example.org/")]

    @Test("A failing exec's message ends with the last lines of its stderr, bounded and sanitized")
    func execStderrTail() async throws {
        let f = try await BrokerFixture(start: false)
        // A megabyte of noise first (kept out of the message and of the broker's memory), then
        // six lines: an escape sequence, a bidi override, a tab and a bare CR among them.
        let script = """
            #!/bin/sh
            i=0; while [ $i -lt 20000 ]; do echo "noise line $i of fifty bytes or so, padding" >&2; i=$((i+1)); done
            printf 'first of six\\n' >&2
            printf 'token \\033[31mexpired\\033[0m\\n' >&2
            printf 'evil \\342\\200\\256txet\\tspaced\\n' >&2
            printf '\\n\\n' >&2
            printf 'bell\\007 and cr\\rafter\\n' >&2
            printf 'last line' >&2
            exit 4

            """
        try f.write(script, to: "bin/fail-loudly", mode: 0o755)
        try f.write(
            TestManifest.json(id: "org.test.loud", perform: TestManifest.exec([f.root + "/bin/fail-loudly"])),
            to: "builtin/loud.json")
        try await f.startBroker()
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.loud", Self.items)
        let end = try await f.finished(job, in: finished, deadline: .seconds(30))
        #expect(end.state == "failed")
        #expect(end.results["error"]?.string == BrokerFixture.errorPrefix + "ProviderFailed")
        #expect(
            end.results["message"]?.string
                == "fail-loudly exited with status 4: token expired | evil txet spaced | bell and cr | after | last line"
        )
    }

    @Test("An exec that exits while a program it started holds its stderr ends its job at its own exit")
    func execEndsAtItsOwnExit() async throws {
        let f = try await BrokerFixture(start: false)
        let pidFile = f.output("descendant")
        try f.write(
            TestManifest.json(
                id: "org.test.detaches",
                perform: TestManifest.exec([
                    "/bin/sh", "-c",
                    "sleep 120 & echo $! > \(pidFile); echo 'could not reach the service' >&2; exit 2",
                ])),
            to: "builtin/detaches.json")
        try await f.startBroker()
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.detaches", Self.items)
        let end = try await f.finished(job, in: finished)
        if let pid = f.read(pidFile).flatMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            kill(pid, SIGKILL)
        }
        #expect(end.state == "failed")
        #expect(end.results["message"]?.string == "sh exited with status 2: could not reach the service")
    }

    @Test("A program killed by a signal says so; one that wrote nothing has no tail")
    func signalAndSilence() async throws {
        let f = try await BrokerFixture(builtin: [
            "killed.json": TestManifest.json(
                id: "org.test.killed", perform: TestManifest.exec(["/bin/sh", "-c", "kill -TERM $$"])),
            "quiet.json": TestManifest.json(
                id: "org.test.quiet", perform: TestManifest.exec(["/bin/sh", "-c", "exit 7"])),
        ])
        let finished = f.finishedSignals()
        let killed = try await f.perform("org.test.killed", Self.items)
        let quiet = try await f.perform("org.test.quiet", Self.items)
        #expect(
            try await f.finished(killed, in: finished).results["message"]?.string
                == "sh was killed by signal 15")
        #expect(
            try await f.finished(quiet, in: finished).results["message"]?.string == "sh exited with status 7")
    }

    @Test("xdg-open's exit statuses are translated, in the wording the apps use too")
    func openerStatusesTranslated() async throws {
        let f = try await BrokerFixture(
            builtin: ["link.json": TestManifest.json(id: "org.test.link", perform: #"{"open": "{url}"}"#)],
            start: false)
        let statusFile = f.output("status")
        try f.write(
            "#!/bin/sh\necho 'xdg-open: no method available' >&2\nexit $(cat \(statusFile))\n",
            to: "bin/xdg-open", mode: 0o755)
        try await f.startBroker(arguments: ["--opener", f.root + "/bin/xdg-open"])
        let expected: [Int: String] = [
            1: "could not open the URL: the opener rejected its arguments (xdg-open exited with status 1)",
            2: "could not open the URL: the file does not exist (xdg-open exited with status 2)",
            3: "could not open the URL: no application handles this URL (xdg-open exited with status 3)",
            4:
                "could not open the URL: the application that handles it failed (xdg-open exited with status 4)",
            9: "could not open the URL: xdg-open exited with status 9",
        ]
        let finished = f.finishedSignals()
        for status in expected.keys.sorted() {
            try f.write("\(status)\n", to: "out/status")
            let job = try await f.perform("org.test.link", Self.items)
            let end = try await f.finished(job, in: finished)
            #expect(end.state == "failed")
            #expect(end.results["message"]?.string == expected[status], "status \(status)")
            #expect(
                end.results["message"]?.string
                    == OpenerFailure.message(program: "xdg-open", exit: .exited(Int32(status))))
        }
    }

    @Test("The tail is cut to whole characters, keeps no control character and at most five lines")
    func tailSanitizing() {
        // A window that starts inside "é" (0xC3 0xA9), invalid UTF-8, C1 controls, an OSC title.
        var bytes: [UInt8] = [0xA9]
        bytes += Array("one\ntwo\nthree\nfour\nfive\nsix \u{1B}]0;title\u{07}end\u{85}\n".utf8)
        bytes += [0xFF, 0x41, 0x0A]
        let tail = ChildFailureMessage.tail(of: bytes)
        #expect(tail == "three | four | five | six end | \u{FFFD}A")
        #expect(ChildFailureMessage.tail(of: Array("\n \t\n\u{1B}[2J\n".utf8)) == nil)
        let long = [UInt8](repeating: UInt8(ascii: "z"), count: 10_000)
        #expect(ChildFailureMessage.tail(of: long)?.count == ChildFailureMessage.capturedBytes)
    }
}
