// Running the built share binary against a test broker, and the manifests the share tests use.
import Foundation
import TestSupport

/// One finished `share` run.
struct ShareRun {
    var termination: ChildProcess.Termination
    var output: String
    var errors: String
    var lines: [String] {
        output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter {
            !$0.isEmpty
        }
    }
    /// The exit status, or nil when a signal ended it.
    var status: Int32? { if case .exited(let code) = termination { code } else { nil } }
}

/// The broker's built-in manifests for the share tests. For https://example.org the broker
/// offers, in this order: Alpha, Beta (share, by priority), then Fails, Gamma Ok, Sleeper
/// (action, by name). Files (ftp only) and Missing (a program that does not exist) are not offered.
let shareTestManifests: [String: String] = [
    "alpha.json": openManifest(
        id: "test.alpha", name: "Alpha", template: "https://alpha.example/share?u={url}&t={title}",
        priority: 10),
    "beta.json": openManifest(
        id: "test.beta", name: "Beta", template: "https://beta.example/?u={url}", priority: 5),
    "gamma.json": execManifest(id: "test.gamma", name: "Gamma Ok", argv: ["/bin/true"]),
    "fails.json": execManifest(id: "test.fails", name: "Fails", argv: ["/bin/false"]),
    "sleeper.json": execManifest(
        id: "test.sleeper", name: "Sleeper",
        argv: ["/bin/sh", "-c", "echo $$ > @ROOT@/sleeper.pid; exec sleep 30"]),
    "files.json": openManifest(
        id: "test.files", name: "Files", template: "https://files.example/?u={url}", schemes: ["ftp"]),
    "missing.json": """
    {"id": "test.missing", "name": "Missing", "category": "action",
     "requires": {"executables": ["no-such-program-for-share-tests"]},
     "perform": {"exec": ["no-such-program-for-share-tests", "{url}"]}}
    """,
]

/// A broker with the share test manifests.
func shareTestBroker() async throws -> BrokerHarness {
    try await BrokerHarness(bus: TestBus.start(), manifests: shareTestManifests)
}

extension BrokerHarness {
    /// Where the Sleeper activity writes its pid.
    var sleeperPIDFile: String { root + "/sleeper.pid" }

    /// The environment for share: XDG dirs of the test, and a session bus address that leads
    /// nowhere, so that a test passes only when `--bus` is used.
    var shareEnvironment: [String: String] {
        var environment = self.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/session-bus"
        environment["TERM"] = "dumb"
        return environment
    }

    /// Runs `share --bus <this bus> arguments…` to completion.
    func share(_ arguments: [String], deadline: Deadline = .seconds(30)) async throws -> ShareRun {
        try await runShare(
            ["--bus", bus.address] + arguments, environment: shareEnvironment, deadline: deadline)
    }
}

/// Runs `share arguments…` with `environment` to completion.
func runShare(_ arguments: [String], environment: [String: String], deadline: Deadline = .seconds(30))
    async throws
    -> ShareRun
{
    let run = try await ChildProcess.run(
        try BuiltProducts.executable("share"), arguments, environment: environment, deadline: deadline)
    return ShareRun(termination: run.termination, output: run.standardOutput, errors: run.standardError)
}
