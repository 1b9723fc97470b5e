// Captured output through ChildProcessLauncher: the head or the tail within the limit, and the exit reported at exit.
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemSupport

@Suite struct OutputCaptureTests {
    let queue = DispatchQueue(label: "OutputCaptureTests")

    func run(_ arguments: [String], options: SpawnOptions, timeout: TimeInterval = 10) throws
        -> ProcessTermination?
    {
        let done = Awaited<ProcessTermination>()
        _ = try ChildProcessLauncher(queue: queue).spawn(arguments, options: options) { done.set($0) }
        return done.wait(timeout: timeout)
    }

    @Test func tailKeepsTheLastBytesOfAStreamFarLongerThanTheLimit() throws {
        // 8 MiB of noise, then the line that matters.
        let script = "head -c 8388608 /dev/zero | tr '\\0' x >&2; printf 'the end\\n' >&2; exit 4"
        let result = try run(
            ["/bin/sh", "-c", script],
            options: SpawnOptions(captureStandardError: true, captureLimit: 2048, captureWindow: .tail))
        #expect(result?.exit == .exited(4))
        let kept = result?.standardError ?? []
        #expect(kept.count == 2048)
        #expect(String(decoding: kept, as: UTF8.self).hasSuffix("xxxthe end\n"))
    }

    @Test func headIsStillTheDefaultWindow() throws {
        let result = try run(
            ["/bin/sh", "-c", "printf 'first\\n' >&2; head -c 100000 /dev/zero | tr '\\0' y >&2"],
            options: SpawnOptions(captureStandardError: true, captureLimit: 16))
        #expect(result?.standardError == Array("first\nyyyyyyyyyy".utf8))
    }

    @Test func reportAtExitDoesNotWaitForADescendantHoldingThePipe() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pidFile = directory.file("descendant")
        // The background sleep keeps stderr open for a minute after its parent exited.
        let script = "sleep 60 & echo $! > \"$1\"; echo 'it failed' >&2; exit 3"
        let result = try run(
            ["/bin/sh", "-c", script, "sh", pidFile],
            options: SpawnOptions(captureStandardError: true, captureWindow: .tail, reportAtExit: true))
        if let pid = contents(of: pidFile).flatMap({
            pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }) {
            kill(pid, SIGKILL)
        }
        #expect(result?.exit == .exited(3))
        #expect(result?.standardError == Array("it failed\n".utf8))
    }

    private func contents(of path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

}
