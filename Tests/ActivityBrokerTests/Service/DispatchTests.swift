// open and exec activities run by the real broker: the opener's argv, no shell, stdin, the token.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("open and exec dispatch")
struct DispatchTests {
    @Test("An open activity hands the opener exactly the expanded, percent-encoded URL")
    func openRecordsExpandedURL() async throws {
        let f = try await BrokerFixture(builtin: [
            "post.json": TestManifest.json(
                id: "org.test.post", perform: #"{"open": "https://post.example/share?u={url}&t={title}"}"#)
        ])
        let finished = f.finishedSignals()
        let url = "https://example.org/secret-page?q=1&r=2"
        let title = "Caf\u{e9} & friends"
        let job = try await f.perform("org.test.post", ["url": .string(url), "title": .string(title)])
        let end = try await f.finished(job, in: finished)
        #expect(end.state == "completed", "\(end.results)")
        let recorded = f.read(f.opened)?.split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        #expect(
            recorded == [
                "1",
                "https://post.example/share?u=https%3A%2F%2Fexample.org%2Fsecret-page%3Fq%3D1%26r%3D2&t=Caf%C3%A9%20%26%20friends",
                "",
            ])
        #expect(f.logOmits("secret-page", title, "Caf%C3%A9"))
    }

    @Test(
        "An exec activity runs without a shell: $(touch x) in the title creates nothing and is one argument")
    func execHasNoShell() async throws {
        let f = try await BrokerFixture()
        let out = f.output("argv")
        let marker = f.output("x")
        try f.write(
            TestManifest.json(
                id: "org.test.exec",
                perform: TestManifest.exec(["record", out, "{title}", "url={url}", "{{literal}}"])),
            to: "builtin/exec.json")
        // The manifest came after the broker started: wait for the watcher to pick it up.
        try await waitUntil("exec.json to load") { try await f.registered()["org.test.exec"] != nil }

        let finished = f.finishedSignals()
        let title = "$(touch \(marker)) `touch \(marker)`; touch \(marker)"
        let url = "https://example.org/path?x=$(id)&y=1"
        let job = try await f.perform("org.test.exec", ["url": .string(url), "title": .string(title)])
        #expect(try await f.finished(job, in: finished).state == "completed")
        let lines = f.read(out)?.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines == ["3", title, "url=\(url)", "{literal}", ""])
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(f.logOmits(title, "x=$(id)"))
    }

    @Test("stdin templates arrive on the child's standard input; otherwise it reads /dev/null")
    func stdinTemplate() async throws {
        let f = try await BrokerFixture()
        let withInput = f.output("stdin"), withoutInput = f.output("nostdin")
        try f.write(
            TestManifest.json(
                id: "org.test.stdin",
                perform: TestManifest.exec(
                    ["/bin/sh", "-c", "cat > \(withInput)"], stdin: "{url}\n{title}\n{text}")),
            to: "builtin/stdin.json")
        try f.write(
            TestManifest.json(
                id: "org.test.nostdin",
                perform: TestManifest.exec(["/bin/sh", "-c", "cat > \(withoutInput)"])),
            to: "builtin/nostdin.json")
        try await waitUntil("manifests to load") { try await f.registered().count == 2 }

        let finished = f.finishedSignals()
        let items: [String: Value] = [
            "url": .string("https://example.org/stdin-secret"), "title": .string("A title"),
            "text": .string("some text"),
        ]
        let first = try await f.perform("org.test.stdin", items)
        let second = try await f.perform("org.test.nostdin", items)
        #expect(try await f.finished(first, in: finished).state == "completed")
        #expect(try await f.finished(second, in: finished).state == "completed")
        #expect(f.read(withInput) == "https://example.org/stdin-secret\nA title\nsome text")
        #expect(f.read(withoutInput) == "")
        #expect(f.logOmits("stdin-secret", "A title", "some text"))
    }

    @Test("activation_token arrives as XDG_ACTIVATION_TOKEN, and only when given")
    func activationToken() async throws {
        let f = try await BrokerFixture()
        let out = f.output("token")
        try f.write(
            TestManifest.json(
                id: "org.test.token",
                perform: TestManifest.exec([
                    "/bin/sh", "-c", "printf '%s' \"${{XDG_ACTIVATION_TOKEN-unset}}\" > \(out)",
                ])),
            to: "builtin/token.json")
        try await waitUntil("token.json to load") { try await f.registered()["org.test.token"] != nil }

        let finished = f.finishedSignals()
        let items: [String: Value] = ["url": .string("https://example.org/")]
        var job = try await f.perform(
            "org.test.token", items, options: ["activation_token": .string("tok-123_x")])
        #expect(try await f.finished(job, in: finished).state == "completed")
        #expect(f.read(out) == "tok-123_x")
        job = try await f.perform("org.test.token", items)
        #expect(try await f.finished(job, in: finished).state == "completed")
        #expect(f.read(out) == "unset")
    }

    @Test(
        "A failing exec or a program that cannot start fails the job with ProviderFailed; a missing one is Unavailable"
    )
    func execFailure() async throws {
        let f = try await BrokerFixture(start: false)
        try f.write("#!/nonexistent/interpreter\n", to: "bin/broken-program", mode: 0o755)
        try f.write(
            TestManifest.json(id: "org.test.fails", perform: TestManifest.exec(["/bin/sh", "-c", "exit 3"])),
            to: "builtin/fails.json")
        try f.write(
            TestManifest.json(id: "org.test.cannot", perform: TestManifest.exec(["broken-program"])),
            to: "builtin/cannot.json")
        try f.write(
            TestManifest.json(id: "org.test.gone", perform: TestManifest.exec(["/nonexistent/program"])),
            to: "builtin/gone.json")
        try await f.startBroker()
        let finished = f.finishedSignals()
        let items: [String: Value] = ["url": .string("https://example.org/")]
        #expect(
            await f.errorName("Perform", [.string("org.test.gone"), .vardict(items), .vardict([:])])
                == BrokerFixture.errorPrefix + "Unavailable")
        for id in ["org.test.fails", "org.test.cannot"] {
            let job = try await f.perform(id, items)
            let end = try await f.finished(job, in: finished)
            #expect(end.state == "failed", "\(id)")
            #expect(
                end.results["error"]?.string == BrokerFixture.errorPrefix + "ProviderFailed",
                "\(id): \(end.results)")
            #expect(end.results["message"]?.string?.isEmpty == false)
            #expect(
                try await f.property("State", path: job, interface: BrokerFixture.jobInterface)
                    == .string("failed"))
        }
        #expect(try await f.offered("https://example.org/").count == 2)
    }

    @Test(
        "open {url} passes the URL through unchanged, but never opens a scheme other than http, https, mailto"
    )
    func openRefusesOtherSchemes() async throws {
        let f = try await BrokerFixture(builtin: [
            "link.json": TestManifest.json(
                id: "org.test.link", perform: #"{"open": "{url}"}"#,
                match: #"{"schemes": ["https", "file", "javascript", "mailto"]}"#)
        ])
        for url in ["file:///etc/passwd", "javascript:alert(1)"] {
            #expect(
                await f.errorName(
                    "Perform", [.string("org.test.link"), .vardict(["url": .string(url)]), .vardict([:])])
                    == BrokerFixture.errorPrefix + "InvalidArgument", "\(url)")
        }
        let finished = f.finishedSignals()
        let url = "https://example.org/a%20b?c=d&e=%2F#frag"
        let job = try await f.perform("org.test.link", ["url": .string(url)])
        #expect(try await f.finished(job, in: finished).state == "completed")
        #expect(f.read(f.opened) == "1\n\(url)\n")
        let mail = try await f.perform("org.test.link", ["url": .string("mailto:someone@example.org")])
        #expect(try await f.finished(mail, in: finished).state == "completed")
        #expect(f.read(f.opened) == "1\nmailto:someone@example.org\n")
    }

    @Test(
        "Input larger than a pipe buffer reaches the child whole, and a child that never reads it does not stall the broker"
    )
    func largeStandardInput() async throws {
        let f = try await BrokerFixture(start: false)
        let out = f.output("big")
        try f.write(
            TestManifest.json(
                id: "org.test.reads",
                perform: TestManifest.exec(["/bin/sh", "-c", "cat > \(out)"], stdin: "{text}|{url}")),
            to: "builtin/reads.json")
        try f.write(
            TestManifest.json(
                id: "org.test.ignores", perform: TestManifest.exec(["sleep", "30"], stdin: "{text}|{url}")),
            to: "builtin/ignores.json")
        try await f.startBroker()
        let text = String(repeating: "0123456789abcdef", count: 4096)  // 64 KiB, the most allowed
        let url = "https://example.org/" + String(repeating: "p", count: 30 * 1024)
        let items: [String: Value] = ["url": .string(url), "text": .string(text)]
        let finished = f.finishedSignals()

        let stuck = try await f.perform("org.test.ignores", items)
        // Answered within the call's 10 s timeout, long before the 30 s child ends: the loop
        // is not blocked writing its stdin.
        #expect(try await f.offered("https://example.org/").count == 2)
        let reads = try await f.perform("org.test.reads", items)
        #expect(try await f.finished(reads, in: finished).state == "completed")
        #expect(f.read(out) == text + "|" + url)
        try await f.call("Cancel", path: stuck, interface: BrokerFixture.jobInterface)
        #expect(try await f.finished(stuck, in: finished).state == "cancelled")
    }

    @Test("Regression: the activation token the broker was started with reached every child as the job's own")
    func staleTokenIsNotInherited() async throws {
        let f = try await BrokerFixture(start: false)
        let out = f.output("token")
        try f.write(
            TestManifest.json(
                id: "org.test.token",
                perform: TestManifest.exec([
                    "/bin/sh", "-c",
                    "printf '%s,%s' \"${{XDG_ACTIVATION_TOKEN-unset}}\" \"${{DESKTOP_STARTUP_ID-unset}}\" > \(out)",
                ])),
            to: "builtin/token.json")
        f.extraEnvironment.value = ["XDG_ACTIVATION_TOKEN": "stale-token", "DESKTOP_STARTUP_ID": "stale-id"]
        try await f.startBroker()
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.token", ["url": .string("https://example.org/")])
        #expect(try await f.finished(job, in: finished).state == "completed")
        #expect(f.read(out) == "unset,unset")
    }
}
