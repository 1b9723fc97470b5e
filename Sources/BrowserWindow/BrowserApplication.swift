// activity-browser's composition root: GTK, WebKit, the bus connection, the exported interface, the main loop.
import ActivityBrokerInterface
import CGtk
import DBus
import Dispatch
import Foundation
import UIServiceSupport
import GtkSupport
import Navigation

/// Starts the browser service and runs GLib's main loop until the process exits.
public enum BrowserApplication {
    /// Never returns: exits 0 when idle or when the bus goes away, 1 when it cannot serve.
    @MainActor
    public static func run(_ arguments: BrowserArguments) -> Never {
        g_set_prgname("activity-browser")
        let environment = ProcessInfo.processInfo.environment
        // A display that cannot be opened is reported through Open (Unavailable) rather than
        // by failing activation.
        let displayError: String? =
            gtk_init_check() != 0
            ? nil : "the browser cannot open the display '\(environment["DISPLAY"] ?? "")'"
        MainQueueBridge.install()

        let connection: Connection
        do {
            connection = try Connection(bus: arguments.bus == "session" ? .session : .address(arguments.bus))
        } catch {
            BrowserLog.write("cannot connect to the bus: \(error)")
            exit(1)
        }
        // The desktop's light/dark choice (the portal's color-scheme), before the first window.
        if displayError == nil { followDesktopColorScheme(on: connection) }
        let engine = displayError == nil ? WebEngine(environment: environment) : nil
        let callers = BrokerCallers(
            connection: connection, interface: Browser1.interface, log: BrowserLog.write)
        let registry = BrowserRegistry(
            engine: engine, displayError: displayError, opener: SystemURLOpener(command: arguments.opener),
            idleExit: arguments.idleExit, onIdle: callers.exitIfIdle)
        let service = BrowserService(connection: connection, registry: registry, callers: callers)
        do {
            try connection.export(Browser1.objectPath, interfaces: [service.interface()])
        } catch {
            BrowserLog.write("cannot export \(Browser1.objectPath): \(error)")
            exit(1)
        }
        connection.onDisconnect {
            DispatchQueue.main.async {
                BrowserLog.write("the bus connection closed: exiting")
                exit(0)
            }
        }
        let request = MethodCall(
            destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "RequestName",
            body: [
                .string(Browser1.busName.rawValue), .uint32(Connection.NameRequestFlags.doNotQueue.rawValue),
            ])
        // Built here: a closure formed inside the reply handler would inherit the main actor's
        // isolation and trap when run on the bus loop (as the sheet's did, whenever there was
        // no display).
        let displayNote = displayError.map { " (\($0))" } ?? ""
        connection.call(request) { result in
            switch result {
            case .success(let values) where values.first?.uint32 == 1:
                BrowserLog.write("serving \(Browser1.busName) as \(connection.uniqueName)\(displayNote)")
            case .success:
                BrowserLog.write("\(Browser1.busName) is already owned: exiting")
                exit(0)
            case .failure(let error):
                BrowserLog.write("cannot own \(Browser1.busName): \(error)")
                exit(1)
            }
        }
        let loop = g_main_loop_new(nil, 0)
        withExtendedLifetime((connection, registry, engine)) {
            g_main_loop_run(loop)
        }
        exit(0)
    }
}

/// Applies the portal's color scheme now (waiting at most 500 ms for it) and on each change.
@MainActor
private func followDesktopColorScheme(on connection: Connection) {
    DarkThemePreference.apply(ColorSchemePreference.read(on: connection)?.prefersDark)
    _ = ColorSchemePreference.follow(on: connection) { scheme in
        DispatchQueue.main.async { MainActor.assumeIsolated { DarkThemePreference.apply(scheme.prefersDark) } }
    }
}
