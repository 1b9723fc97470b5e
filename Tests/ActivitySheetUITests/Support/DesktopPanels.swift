// Panels on the test's X screen without a window manager: the EWMH work area that GDK reads as the monitor's usable part.
import Foundation
import TestSupport

/// A work area smaller than the screen by `top` and `bottom` pixels, announced as a desktop
/// with panels does (`Resources/reserve-panels.py`), so that GDK's
/// `gdk_x11_monitor_get_workarea` reports it. Start it before the sheet; it lasts while this
/// object lives (its helper stays connected to the X server, which would otherwise drop the
/// root window's properties when its last client leaves).
final class DesktopPanels: @unchecked Sendable {
    private let helper: ChildProcess

    init(on fixture: SheetFixture, top: Int, bottom: Int) async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/reserve-panels.py").path
        helper = try ChildProcess(
            executable: "/usr/bin/python3", arguments: [script, "\(top)", "\(bottom)"],
            environment: fixture.toolEnvironment, standardInput: .pipe)
        _ = try await helper.nextLine { $0 == "ready" }
    }

    deinit {
        helper.closeStandardInput()
        // Reaping blocks: on a thread of its own, not the pool thread that releases the panels.
        let helper = helper
        BackgroundCleanup.run { if (try? helper.waitForExit(deadline: .seconds(5))) == nil { helper.kill() } }
    }
}
