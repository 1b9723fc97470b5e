// `make install` / `make uninstall` staged in a temporary DESTDIR from the built tree, and the installed broker.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("make install and make uninstall", .serialized)
struct InstallTests {
    /// The built products (the test's own build: `make install` takes any BUILD_DIR).
    static var buildDirectory: String { BuiltProducts.directory.path }

    static func make(_ target: String, destination: String, dryRun: Bool = false) async throws
        -> CommandResult
    {
        try await runCommand(
            "make",
            (dryRun ? ["-n"] : []) + [
                "--no-print-directory", target, "DESTDIR=\(destination)", "PREFIX=/usr",
                "BUILD_DIR=\(buildDirectory)",
            ])
    }

    /// Every regular file below `root`, relative to it, sorted.
    static func files(below root: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(path)
            }
        }
        return files.sorted()
    }

    /// What `make install PREFIX=/usr` must install from this tree.
    static func expectedFiles() throws -> [String] {
        let manifests = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/extensions")
            .filter { $0.hasSuffix(".json") }
        let interfaces = try FileManager.default.contentsOfDirectory(
            atPath: repositoryRoot + "/docs/interfaces")
        var binaries = ["activity-broker", "share", "activity-reading-list", "activity-qr", "activity-sheet"]
        var browser: [String] = []
        if FileManager.default.isExecutableFile(atPath: buildDirectory + "/activity-browser") {
            binaries.append("activity-browser")
            // Without its activation file an installed broker could never start the window.
            browser.append("usr/share/dbus-1/services/org.activitybroker.Browser.service")
        }
        return
            (binaries.map { "usr/bin/" + $0 } + browser
            + manifests.map { "usr/share/activity-broker/extensions/" + $0 }
            + interfaces.map { "usr/share/dbus-1/interfaces/" + $0 }
            + [
                "usr/share/activity-broker/manifest.schema.json",
                "usr/lib/systemd/user/activity-broker.service",
                "usr/share/dbus-1/services/org.activitybroker.Broker1.service",
                "usr/share/dbus-1/services/org.activitybroker.ReadingList.service",
                "usr/share/dbus-1/services/org.activitybroker.Sheet.service",
                "usr/share/man/man1/share.1", "usr/share/man/man1/activity-broker.1",
                "usr/share/man/man5/activity-broker-manifest.5",
                "usr/share/bash-completion/completions/share", "usr/share/zsh/site-functions/_share",
                "usr/share/doc/activity-broker/LICENSE",
            ]).sorted()
    }

    @Test(
        "install on a built tree compiles nothing, stages exactly the expected files; uninstall removes them all"
    )
    func stagedInstallAndUninstall() async throws {
        let stage = try TemporaryDirectory(prefix: "staged-install")
        defer { stage.remove() }
        // What make would run: no build, no package installation.
        let plan = try await Self.make("install", destination: stage.path, dryRun: true)
        #expect(plan.succeeded, "\(plan.transcript)")
        for forbidden in ["swift ", "apt-get", "install-deps", "sudo"] {
            #expect(
                !plan.standardOutput.contains(forbidden),
                "make -n install runs '\(forbidden)':\n\(plan.standardOutput)")
        }
        #expect(Self.files(below: stage.path).isEmpty, "make -n wrote files")

        let install = try await Self.make("install", destination: stage.path)
        #expect(install.succeeded, "\(install.transcript)")
        #expect(!install.standardOutput.contains("Compiling"), "\(install.standardOutput)")
        #expect(Self.files(below: stage.path) == (try Self.expectedFiles()))

        // The unit and activation files name the prefix, never the source's /usr/local.
        let unit = try String(
            contentsOfFile: stage.file("usr/lib/systemd/user/activity-broker.service"), encoding: .utf8)
        #expect(
            unit.contains(
                "\nExecStart=/usr/bin/activity-broker --extensions-dir /usr/share/activity-broker/extensions\n"
            ))
        #expect(unit.contains("\nDocumentation=man:activity-broker(1)\n"))
        #expect(!unit.contains("NoNewPrivileges="))
        for file in Self.files(below: stage.path) where file.hasSuffix(".service") {
            let text = (try? String(contentsOfFile: stage.file(file), encoding: .utf8)) ?? ""
            #expect(!text.contains("/usr/local/"), "\(file) names /usr/local")
        }
        let activation = try String(
            contentsOfFile: stage.file("usr/share/dbus-1/services/org.activitybroker.Sheet.service"),
            encoding: .utf8)
        #expect(activation.contains("Exec=/usr/bin/activity-sheet"))
        #expect(FileManager.default.isExecutableFile(atPath: stage.file("usr/bin/share")))

        let uninstall = try await Self.make("uninstall", destination: stage.path)
        #expect(uninstall.succeeded, "\(uninstall.transcript)")
        #expect(Self.files(below: stage.path) == [])
        #expect(!FileManager.default.fileExists(atPath: stage.file("usr/share/activity-broker")))
    }

    @Test("install without a build fails with a hint and installs nothing")
    func installWithoutBuildFails() async throws {
        let stage = try TemporaryDirectory(prefix: "unbuilt-install")
        defer { stage.remove() }
        let run = try await runCommand(
            "make",
            [
                "--no-print-directory", "install", "DESTDIR=\(stage.path)", "PREFIX=/usr",
                "BUILD_DIR=\(stage.path)/none",
            ])
        #expect(run.termination != .exited(0))
        #expect(run.standardError.contains("make release"), "\(run.transcript)")
        #expect(Self.files(below: stage.path) == [])
    }

    @Test("the installed manifests keep the builtin origin though their directory is also in XDG_DATA_DIRS")
    func installedBuiltinsStayBuiltin() async throws {
        let stage = try TemporaryDirectory(prefix: "installed-origin")
        defer { stage.remove() }
        let install = try await Self.make("install", destination: stage.path)
        #expect(install.succeeded, "\(install.transcript)")
        // As the installed unit runs it: its own datadir is also one of XDG_DATA_DIRS.
        let datadir = stage.path + "/usr/share"
        let harness = try await BrokerHarness(
            extensionDirectories: [datadir + "/activity-broker/extensions/"], start: false)
        defer { harness.stopInBackground() }
        harness.extraEnvironment.value = ["XDG_DATA_DIRS": datadir]
        try await harness.start()
        let connection = try harness.bus.connect()
        defer { connection.close() }
        let reply = try await connection.call(
            MethodCall(
                destination: "org.activitybroker.Broker1", path: "/org/activitybroker/Broker1",
                interface: "org.activitybroker.Broker1", member: "ListRegistered", body: [.vardict([:])]),
            timeout: .seconds(10))
        let records = (reply.first?.array ?? []).compactMap(\.vardict)
        let origins = Dictionary(records.map { ($0["id"]?.string ?? "", $0["origin"]?.string ?? "") }) {
            a, _ in a
        }
        #expect(origins["org.activitybroker.open-in-browser"] == "builtin", "\(origins)")
        #expect(!origins.values.contains("system"), "\(origins)")
    }
}
