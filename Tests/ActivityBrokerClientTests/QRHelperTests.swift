// activity-qr end to end: where it writes the PNG, and that it refuses a directory another could control.
import Foundation
import TestSupport
import Testing

/// Runs the built activity-qr with a `qrencode` that succeeds without writing (a symlink to
/// true(1): no script the test writes, so no ETXTBSY) and `echo` as the opener, so standard
/// output is the image's path.
private func runQR(runtimeDirectory: String?, tools: String) async throws
    -> (termination: ChildProcess.Termination, standardOutput: String, standardError: String)
{
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_RUNTIME_DIR"] = runtimeDirectory
    environment["PATH"] = tools + ":/usr/bin:/bin"
    environment["ACTIVITY_BROKER_OPENER"] = "/bin/echo"
    return try await ChildProcess.run(
        try BuiltProducts.executable("activity-qr"), ["https://example.org/"], environment: environment)
}

/// A directory holding `qrencode` → /bin/true.
private func fakeTools(in directory: TemporaryDirectory) throws -> String {
    let tools = directory.path + "/tools"
    try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: tools + "/qrencode", withDestinationPath: "/bin/true")
    return tools
}

private func mode(_ path: String) -> (type: mode_t, permissions: mode_t, owner: uid_t)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return (info.st_mode & S_IFMT, info.st_mode & 0o7777, info.st_uid)
}

@Suite(.timeLimit(.minutes(1))) struct QRHelperTests {
    /// Regression: without XDG_RUNTIME_DIR the code went to a fixed /tmp/activity-broker-qr that
    /// another user could pre-create; now a fresh mkdtemp directory of ours, mode 0700.
    @Test func withoutARuntimeDirectoryTheCodeGoesInAPrivateTemporaryDirectory() async throws {
        let directory = try TemporaryDirectory(prefix: "qr-test")
        defer { directory.remove() }
        let result = try await runQR(runtimeDirectory: nil, tools: try fakeTools(in: directory))
        #expect(result.termination == .exited(0), "\(result.standardError)")
        let image = result.standardOutput.trimmingCharacters(in: .newlines)
        let folder = (image as NSString).deletingLastPathComponent
        defer {
            unlink(image)
            rmdir(folder)
        }
        #expect(folder.hasPrefix("/tmp/activity-broker-qr-") && folder != "/tmp/activity-broker-qr-XXXXXX", "\(image)")
        let folderMode = try #require(mode(folder))
        #expect(folderMode.type == S_IFDIR && folderMode.permissions == 0o700 && folderMode.owner == getuid())
        let imageMode = try #require(mode(image))
        #expect(imageMode.type == S_IFREG && imageMode.permissions == 0o600)
    }

    /// Regression: the runtime directory's subdirectory was used whatever it was. One with
    /// mode 0777, or a symlink elsewhere, is refused and nothing is written.
    @Test func aQRDirectoryThatIsNotPrivateIsRefused() async throws {
        let directory = try TemporaryDirectory(prefix: "qr-test")
        defer { directory.remove() }
        let tools = try fakeTools(in: directory)

        let open = directory.path + "/open"
        try FileManager.default.createDirectory(atPath: open + "/activity-broker-qr", withIntermediateDirectories: true)
        chmod(open + "/activity-broker-qr", 0o777)
        let opened = try await runQR(runtimeDirectory: open, tools: tools)
        #expect(opened.termination == .exited(1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: open + "/activity-broker-qr").isEmpty)

        let linked = directory.path + "/linked"
        let elsewhere = directory.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: linked, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        chmod(elsewhere, 0o700)
        try FileManager.default.createSymbolicLink(atPath: linked + "/activity-broker-qr", withDestinationPath: elsewhere)
        let followed = try await runQR(runtimeDirectory: linked, tools: tools)
        #expect(followed.termination == .exited(1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    /// With a runtime directory the code goes in a private subdirectory it creates, and codes
    /// older than a day from earlier runs are removed.
    @Test func aRuntimeDirectoryGetsAPrivateFolderAndStaleCodesGo() async throws {
        let directory = try TemporaryDirectory(prefix: "qr-test")
        defer { directory.remove() }
        let tools = try fakeTools(in: directory)
        let runtime = directory.path + "/runtime"
        let folder = runtime + "/activity-broker-qr"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        chmod(folder, 0o700)
        for name in ["qr-1.png", "qr-2.png"] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data()))
        }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -2 * 24 * 3600)], ofItemAtPath: folder + "/qr-1.png")

        let result = try await runQR(runtimeDirectory: runtime, tools: tools)
        #expect(result.termination == .exited(0), "\(result.standardError)")
        let image = result.standardOutput.trimmingCharacters(in: .newlines)
        #expect((image as NSString).deletingLastPathComponent == folder)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder))
            == ["qr-2.png", (image as NSString).lastPathComponent], "the stale code went, the fresh one stayed")
    }
}
