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
