// activity-qr URL: renders URL as a QR code PNG with qrencode and opens it with the opener.
// Run by the "Show QR Code" manifest; a program of its own because a manifest's exec runs
// one command and showing a code takes two (render, then open).
import ActivityBrokerInterface
import Foundation
import Glibc
import SystemSupport

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("activity-qr: \(message)\n".utf8))
    exit(1)
}

if CommandLine.arguments.dropFirst().first == "--version" {
    print(ProjectVersion.line(program: "activity-qr"))
    exit(0)
}

let environment = ProcessInfo.processInfo.environment

/// Runs argv[0] (looked up on PATH) with the rest as arguments, no shell, our standard streams;
/// returns its exit status (128 + signal when killed).
func run(_ argv: [String]) -> Int32 {
    do {
        return try ProcessSpawner.run(argv, environment: environment).shellStatus
    } catch {
        fail("cannot run \(argv[0]): \(error)")
    }
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let url = arguments.first, !url.isEmpty else { fail("usage: activity-qr URL") }

/// A stale code is one older than this; codes are left for the viewer (the opener may return
/// before the viewer has read the file), so each run sweeps what earlier runs left.
let staleAge: time_t = 24 * 60 * 60

/// lstat of `path`, nil when it fails.
func status(_ path: String) -> stat? {
    var info = stat()
    return lstat(path, &info) == 0 ? info : nil
}

/// True when `info` is a real directory (not a symlink) owned by us with mode 0700: no other
/// user can then plant a file or a symlink in it.
func isPrivateDirectory(_ info: stat) -> Bool {
    (info.st_mode & S_IFMT) == S_IFDIR && info.st_uid == getuid() && (info.st_mode & 0o7777) == 0o700
}

/// Removes our qr-*.png files in `directory` older than `staleAge`.
func removeStaleCodes(in directory: String) {
    let now = time(nil)
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    where name.hasPrefix("qr-") && name.hasSuffix(".png") {
        let path = directory + "/" + name
        if let info = status(path), (info.st_mode & S_IFMT) == S_IFREG, now - info.st_mtim.tv_sec > staleAge {
            unlink(path)
        }
    }
}

/// The directory for the PNG: `$XDG_RUNTIME_DIR/activity-broker-qr` (created 0700, and checked
/// to be ours, a real directory, 0700), or without a runtime directory a fresh private one from
/// mkdtemp under /tmp (a fixed name there could be pre-created by another user).
func imageDirectory() -> String {
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
        let directory = runtime + "/activity-broker-qr"
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            fail("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        guard let info = status(directory), isPrivateDirectory(info) else {
            fail("\(directory) is not a directory of ours with mode 0700; not writing there")
        }
        removeStaleCodes(in: directory)
        return directory
    }
    // Earlier runs' private directories: ours, real directories, untouched for a day.
    let now = time(nil)
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
    where name.hasPrefix("activity-broker-qr-") {
        let path = "/tmp/" + name
        if let info = status(path), isPrivateDirectory(info), now - info.st_mtim.tv_sec > staleAge {
            removeStaleCodes(in: path)
            rmdir(path)
        }
    }
    var template = Array("/tmp/activity-broker-qr-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
        mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
    }
    guard let made else { fail("cannot create a directory in /tmp: \(String(cString: strerror(errno)))") }
    return made
}

let image = imageDirectory() + "/qr-\(getpid()).png"
// Created here, exclusively and never through a symlink; qrencode then writes into our file.
let imageFD = open(image, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
guard imageFD >= 0 else { fail("cannot create \(image): \(String(cString: strerror(errno)))") }
close(imageFD)

guard run(["qrencode", "--size=8", "--margin=2", "--output=" + image, "--", url]) == 0 else {
    fail("qrencode could not render the code")
}
// The broker passes its --opener on; xdg-open otherwise.
let opener = (environment["ACTIVITY_BROKER_OPENER"] ?? "xdg-open").split(separator: " ").map(String.init)
exit(run(opener + [image]))
