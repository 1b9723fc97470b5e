// `make install` / `make uninstall` staged in a temporary DESTDIR from the built tree, and the installed broker.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("make install and make uninstall", .serialized)
struct InstallTests {
    /// The built products (the test's own build: `make install` takes any BUILD_DIR).
    static var buildDirectory: String { BuiltProducts.directory.path }

    /// `make TARGET` staged in `destination`; with `umask`, make runs under that umask (as under
    /// `sudo` with a strict one).
    static func make(_ target: String, destination: String, dryRun: Bool = false, umask: String? = nil)
        async throws -> CommandResult
    {
        let arguments =
            (dryRun ? ["-n"] : []) + [
                "--no-print-directory", target, "DESTDIR=\(destination)", "PREFIX=/usr",
                "BUILD_DIR=\(buildDirectory)",
            ]
        guard let umask else { return try await runCommand("make", arguments) }
        return try await runCommand("sh", ["-c", "umask \(umask) && exec make \"$@\"", "sh"] + arguments)
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

    /// Every directory below `root`, relative to it, sorted.
    static func directories(below root: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var directories: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                directories.append(path)
            }
        }
        return directories.sorted()
    }

    /// The directories `make install PREFIX=/usr` creates that are ours alone (the Makefile's
    /// OWN_DIRS): `make uninstall` removes them once empty.
    static let ownDirectories = [
        "usr/share/activity-broker/extensions", "usr/share/activity-broker", "usr/share/doc/activity-broker",
    ]

    /// Directories install creates that other packages own: uninstall leaves them, empty or not.
    static let sharedDirectories = [
        "usr/bin", "usr/lib/systemd/user", "usr/share/dbus-1/services", "usr/share/dbus-1/interfaces",
        "usr/share/man/man1", "usr/share/man/man5", "usr/share/bash-completion/completions",
        "usr/share/zsh/site-functions", "usr/share/doc",
    ]

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
            browser += [
                "usr/share/dbus-1/services/org.activitybroker.Browser.service",
                "usr/lib/systemd/user/activity-browser.service",
            ]
        }
        return
            (binaries.map { "usr/bin/" + $0 } + browser
            + manifests.map { "usr/share/activity-broker/extensions/" + $0 }
            + interfaces.map { "usr/share/dbus-1/interfaces/" + $0 }
            + [
                "usr/share/activity-broker/manifest.schema.json",
                "usr/lib/systemd/user/activity-broker.service",
                "usr/lib/systemd/user/activity-reading-list.service",
                "usr/lib/systemd/user/activity-sheet.service",
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
        // The prefix rewrite reaches the paths only: a comment naming /usr/local/ came out wrong.
        let sourceUnit = try String(
            contentsOfFile: repositoryRoot + "/systemd/activity-broker.service", encoding: .utf8)
        let comments = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("#") } }
        #expect(comments(unit) == comments(sourceUnit))
        for file in Self.files(below: stage.path) where file.hasSuffix(".service") {
            let text = (try? String(contentsOfFile: stage.file(file), encoding: .utf8)) ?? ""
            #expect(!text.contains("/usr/local/"), "\(file) names /usr/local")
        }
        let activation = try String(
            contentsOfFile: stage.file("usr/share/dbus-1/services/org.activitybroker.Sheet.service"),
            encoding: .utf8)
        #expect(activation.contains("Exec=/usr/bin/activity-sheet"))
        // On a systemd session the bus asks systemd to start the sheet, in the user manager's
        // environment like the broker, not dbus-daemon's activation environment.
        #expect(activation.contains("\nSystemdService=activity-sheet.service\n"), "\(activation)")
        let sheetUnit = try String(
            contentsOfFile: stage.file("usr/lib/systemd/user/activity-sheet.service"), encoding: .utf8)
        for line in [
            "Type=dbus", "BusName=org.activitybroker.Sheet", "ExecStart=/usr/bin/activity-sheet",
            "PartOf=graphical-session.target",
        ] {
            #expect(sheetUnit.contains("\n\(line)\n"), "activity-sheet.service lacks \(line):\n\(sheetUnit)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: stage.file("usr/bin/share")))

        let uninstall = try await Self.make("uninstall", destination: stage.path)
        #expect(uninstall.succeeded, "\(uninstall.transcript)")
        #expect(Self.files(below: stage.path) == [])
        // Nothing of ours is left: no directory names the project; the shared ones stay.
        let left = Self.directories(below: stage.path)
        #expect(left.filter { $0.contains("activity") }.isEmpty, "left behind: \(left)")
        #expect(Set(Self.sharedDirectories).isSubset(of: left), "removed a shared directory: \(left)")
    }

    @Test(
        "uninstall removes each directory of ours once it is empty, keeps one holding someone's file, and no shared one"
    )
    func uninstallRemovesOurDirectoriesOnlyWhenEmpty() async throws {
        let stage = try TemporaryDirectory(prefix: "uninstall-dirs")
        defer { stage.remove() }
        let install = try await Self.make("install", destination: stage.path)
        #expect(install.succeeded, "\(install.transcript)")
        let left = Set(Self.directories(below: stage.path))
        #expect(Set(Self.ownDirectories).isSubset(of: left), "install did not create: \(left)")
        // A file someone else put in one of our directories keeps it and its parents, not the others.
        let added = stage.file("usr/share/activity-broker/extensions/local.json")
        try "{}".write(toFile: added, atomically: true, encoding: .utf8)
        let first = try await Self.make("uninstall", destination: stage.path)
        #expect(first.succeeded, "\(first.transcript)")
        #expect(Self.files(below: stage.path) == ["usr/share/activity-broker/extensions/local.json"])
        #expect(!FileManager.default.fileExists(atPath: stage.file("usr/share/doc/activity-broker")))
        // Once it is gone, a second uninstall removes the rest and fails on nothing missing.
        try FileManager.default.removeItem(atPath: added)
        let second = try await Self.make("uninstall", destination: stage.path)
        #expect(second.succeeded, "\(second.transcript)")
        let after = Self.directories(below: stage.path)
        #expect(Set(Self.ownDirectories).isDisjoint(with: after), "left behind: \(after)")
        #expect(Set(Self.sharedDirectories).isSubset(of: after), "removed a shared directory: \(after)")
    }

    @Test(
        "install under umask 077 (sudo with a strict umask) still installs every file 0644 or 0755, every directory 0755"
    )
    func installUnderStrictUmaskSetsModes() async throws {
        let stage = try TemporaryDirectory(prefix: "umask-install")
        defer { stage.remove() }
        let install = try await Self.make("install", destination: stage.path, umask: "077")
        #expect(install.succeeded, "\(install.transcript)")
        // The user's systemd and dbus-daemon read the unit and activation files, the broker its
        // manifests: a 0600 file or 0700 directory (the umask's) hides them.
        let enumerator = FileManager.default.enumerator(atPath: stage.path)
        var checked = 0
        while let path = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: stage.file(path))
            let mode = (attributes[.posixPermissions] as? Int) ?? -1
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                #expect(mode == 0o755, "\(path) is a directory of mode \(String(mode, radix: 8))")
            } else {
                #expect(
                    mode == 0o644 || mode == 0o755, "\(path) is installed with mode \(String(mode, radix: 8))"
                )
            }
            checked += 1
        }
        #expect(checked > 0, "nothing was installed")
    }

    @Test("a broker started while another owns the name exits with the status the unit does not restart on")
    func unitDoesNotRestartWhenTheNameIsOwned() async throws {
        // Restart=on-failure restarted a unit whose start found a broker run by hand on the
        // name, failing again until systemd's start limit.
        let unit = try String(
            contentsOfFile: repositoryRoot + "/systemd/activity-broker.service", encoding: .utf8)
        let prevented = unit.split(separator: "\n").filter { $0.hasPrefix("RestartPreventExitStatus=") }
            .flatMap { $0.dropFirst("RestartPreventExitStatus=".count).split(separator: " ") }
            .compactMap { Int32($0) }
        let harness = try await BrokerHarness()
        defer { harness.stopInBackground() }
        let second = try await ChildProcess.run(
            try BuiltProducts.executable("activity-broker"), harness.brokerArguments(),
            environment: harness.environment)
        guard case .exited(let status) = second.termination else {
            Issue.record("the second broker did not exit: \(second.termination)")
            return
        }
        #expect(status != 0, "\(second.standardError)")
        #expect(second.standardError.contains("--replace"), "\(second.standardError)")
        #expect(prevented.contains(status), "exit \(status); RestartPreventExitStatus: \(prevented)")
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
