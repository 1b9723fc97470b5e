// activity-qr URL: renders URL as a QR code PNG with qrencode and opens it with the opener.
// Run by the "Show QR Code" manifest; a program of its own because a manifest's exec runs
// one command and showing a code takes two (render, then open).
import Foundation
import Glibc

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("activity-qr: \(message)\n".utf8))
    exit(1)
}

/// Runs argv[0] (looked up on PATH) with the rest as arguments, no shell; returns its exit status.
func run(_ argv: [String]) -> Int32 {
    var pid: pid_t = 0
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    let cArguments = argv.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    guard posix_spawnp(&pid, argv[0], nil, &attributes, cArguments, environ) == 0 else {
        fail("cannot run \(argv[0]): \(String(cString: strerror(errno)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let url = arguments.first, !url.isEmpty else { fail("usage: activity-qr URL") }

let environment = ProcessInfo.processInfo.environment
let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSTemporaryDirectory()
let directory = runtime + "/activity-broker-qr"
try? FileManager.default.createDirectory(
    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
let image = directory + "/qr-\(getpid()).png"

guard run(["qrencode", "--size=8", "--margin=2", "--output=" + image, "--", url]) == 0 else {
    fail("qrencode could not render the code")
}
// The broker passes its --opener on; xdg-open otherwise.
let opener = (environment["ACTIVITY_BROKER_OPENER"] ?? "xdg-open").split(separator: " ").map(String.init)
exit(run(opener + [image]))
