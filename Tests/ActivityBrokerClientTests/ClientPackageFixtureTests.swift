// Tests/ClientPackageFixture: another package that depends on this one by path, as docs/client-library.md says.
import Foundation
import TestSupport
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct ClientPackageFixtureTests {
    static let fixture = repositoryRoot + "/Tests/ClientPackageFixture"
    /// Kept between runs, so that only the first build compiles the library again.
    static let scratch = repositoryRoot + "/.build/client-package-fixture"

    static func swift(_ arguments: [String], deadline: Deadline) async throws -> ChildProcess {
        let child = try ChildProcess(
            executable: "swift",
            arguments: arguments + ["--package-path", fixture, "--scratch-path", scratch],
            workingDirectory: fixture)
        do {
            try await child.exit(deadline: deadline)
        } catch {
            child.kill()
            throw error
        }
        return child
    }

    @Test("the products the documentation names exist: the fixture's package graph resolves")
    func productsResolve() async throws {
        let run = try await Self.swift(["package", "show-dependencies"], deadline: .seconds(120))
        #expect(run.termination == .exited(0), "\(run.standardOutput)\n\(run.standardError)")
    }

    /// Compiles the library a second time (about a minute on a small machine the first time),
    /// so only with CLIENT_FIXTURE_BUILD=1.
    @Test(
        "the fixture builds against ActivityBrokerClient and DBus",
        .enabled(if: ProcessInfo.processInfo.environment["CLIENT_FIXTURE_BUILD"] == "1"))
    func fixtureBuilds() async throws {
        let run = try await Self.swift(["build"], deadline: .seconds(540))
        #expect(run.termination == .exited(0), "\(run.standardOutput)\n\(run.standardError)")
    }
}
