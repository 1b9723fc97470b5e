// activity-sheet's composition root: GTK, the bus connection, the exported interface, the main loop.
import ActivityBrokerInterface
import CGtk
import GtkSupport
import DBus
import Dispatch
import Foundation
import UIServiceSupport

/// Starts the sheet service and runs GLib's main loop until the process exits.
public enum SheetApplication {
    /// Never returns: exits 0 when idle or when the bus goes away, 1 when it cannot serve.
    @MainActor
    public static func run(_ arguments: SheetArguments) -> Never {
        // The sheet reads no argv of its own through GTK; a display that cannot be opened is
        // reported through Show (response 2) rather than by failing activation.
        // Names the startup-notification ids (activation tokens) the sheet hands out.
        g_set_prgname("activity-sheet")
        let displayError: String? =
            gtk_init_check() != 0
            ? nil
            : "the sheet cannot open the display '\(ProcessInfo.processInfo.environment["DISPLAY"] ?? "")'"
        MainQueueBridge.install()

        let connection: Connection
        do {
            connection = try Connection(bus: arguments.bus == "session" ? .session : .address(arguments.bus))
        } catch {
            log("cannot connect to the bus: \(error)")
            exit(1)
        }
        // The desktop's light/dark choice (the portal's color-scheme), before the first window.
        if displayError == nil { followDesktopColorScheme(on: connection) }
        let callers = BrokerCallers(connection: connection, interface: Sheet1.interface, log: log)
        let registry = SheetRegistry(
            environment: ProcessInfo.processInfo.environment, displayError: displayError,
            idleExit: arguments.idleExit, onIdle: callers.exitIfIdle)
        let service = SheetService(registry: registry, callers: callers)
        do {
            try connection.export(Sheet1.objectPath, interfaces: [service.interface()])
        } catch {
            log("cannot export \(Sheet1.objectPath): \(error)")
            exit(1)
        }
        connection.onDisconnect {
            DispatchQueue.main.async {
                log("the bus connection closed: exiting")
                exit(0)
            }
        }
        let request = MethodCall(
            destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "RequestName",
            body: [
                .string(Sheet1.busName.rawValue), .uint32(Connection.NameRequestFlags.doNotQueue.rawValue),
            ])
        // Built here: a closure formed inside the reply handler would inherit the main actor's
        // isolation and trap when run on the bus loop (it did, whenever there was no display).
        let displayNote = displayError.map { " (\($0))" } ?? ""
        connection.call(request) { result in
            switch result {
            case .success(let values) where values.first?.uint32 == 1:
                log("serving \(Sheet1.busName) as \(connection.uniqueName)\(displayNote)")
            case .success:
                log("\(Sheet1.busName) is already owned: exiting")
                exit(0)
            case .failure(let error):
                log("cannot own \(Sheet1.busName): \(error)")
                exit(1)
            }
        }
        let loop = g_main_loop_new(nil, 0)
        withExtendedLifetime((connection, registry)) {
            g_main_loop_run(loop)
        }
        exit(0)
    }

    static func log(_ line: String) {
        FileHandle.standardError.write(Data("activity-sheet: \(line)\n".utf8))
    }
}

@Sendable private func log(_ line: String) { SheetApplication.log(line) }

/// Applies the portal's color scheme now (waiting at most 500 ms for it) and on each change.
@MainActor
private func followDesktopColorScheme(on connection: Connection) {
    DarkThemePreference.apply(ColorSchemePreference.read(on: connection)?.prefersDark)
    _ = ColorSchemePreference.follow(on: connection) { scheme in
        DispatchQueue.main.async { MainActor.assumeIsolated { DarkThemePreference.apply(scheme.prefersDark) } }
    }
}
