// openbox on the fixture's display, waited for until it says it supports what a test needs.
import Foundation
import TestSupport
import Testing

extension BrowserFixture {
    /// A window manager (openbox) on the fixture's display, once the root window's
    /// `_NET_SUPPORTED` lists `atom`; stop it with `stopWindowManager`.
    ///
    /// openbox names its check window (`_NET_SUPPORTING_WM_CHECK`) before it lists what it
    /// supports, and tools refuse what is not listed yet (xdotool's `getactivewindow` failed in
    /// between on a loaded machine): the list is the readiness barrier. A full suite on two
    /// cores can take its time to start it; an openbox that exited says why.
    func startWindowManager(supporting atom: String) async throws -> ChildProcess {
        let windowManager = try ChildProcess(
            executable: "openbox", arguments: ["--sm-disable"], environment: toolEnvironment)
        do {
            try await waitUntil("openbox to list \(atom)", deadline: .seconds(60), interval: .milliseconds(50)) {
                if let ended = windowManager.termination {
                    Issue.record("openbox exited (\(ended)) before managing the display: \(windowManager.standardError)")
                    return true
                }
                let run = try await ChildProcess.run("xprop", ["-root", "_NET_SUPPORTED"], environment: toolEnvironment)
                return run.standardOutput.contains(atom)
            }
        } catch {
            stopWindowManager(windowManager)
            throw error
        }
        return windowManager
    }

    /// Stops `startWindowManager`'s openbox, reaping it off the test's thread.
    func stopWindowManager(_ windowManager: ChildProcess) {
        windowManager.terminate()
        BackgroundCleanup.run { _ = try? windowManager.waitForExit(deadline: .seconds(5)) }
    }
}
