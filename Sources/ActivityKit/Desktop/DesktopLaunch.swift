// How an installed application is launched with a URL: its Exec line (maybe in a terminal, in its Path=) or D-Bus.

/// How the broker starts an installed application for one URL (API.md §4.1), decided from
/// the desktop entry as GIO decides it: `DBusActivatable=true` with a usable bus name wins
/// over `Exec`.
public enum DesktopLaunch: Hashable, Sendable {
    /// Run the Exec line's argv (a broker template: `{url}` where the URL goes), with
    /// `workingDirectory` (`Path=`) as the current directory, inside a terminal emulator when
    /// `terminal` (`Terminal=true`).
    case exec(argv: [String], workingDirectory: String?, terminal: Bool)
    /// Call `org.freedesktop.Application.Open(as uris, a{sv} platform_data)` on `busName` at
    /// `objectPath` (the D-Bus Activation section of the Desktop Entry Specification).
    case dbus(busName: String, objectPath: String)

    /// The launch for `application`, or `nil` when it cannot be given a URL (its Exec line
    /// takes local files only, or no file at all, and it is not D-Bus activatable).
    public init?(_ application: DesktopApplication) {
        if let busName = application.busName {
            self = .dbus(busName: busName, objectPath: Self.objectPath(forBusName: busName))
            return
        }
        // The parsed field code, not the template's text: `{{url}}` (a literal `{url}` in the
        // Exec line) contains "{url}" too, and would launch without the URL.
        guard let argv = application.argvTemplate, application.urlFieldCode != nil else { return nil }
        self = .exec(
            argv: argv, workingDirectory: application.workingDirectory, terminal: application.terminal)
    }

    /// The object path the specification derives from a bus name: `/` + the name with `.`
    /// replaced by `/` and `-` by `_` (`org.example.Foo-Bar` → `/org/example/Foo_Bar`).
    public static func objectPath(forBusName name: String) -> String {
        "/" + String(name.map { $0 == "." ? "/" : $0 == "-" ? "_" : $0 })
    }

    /// The bus name of a `DBusActivatable=true` entry: its file name without `.desktop`
    /// (not the desktop id, which carries subdirectory prefixes), when that is a valid
    /// well-known bus name; otherwise `nil`, and GIO launches through Exec.
    public static func busName(forDesktopFilePath path: String) -> String? {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        guard base.hasSuffix(".desktop") else { return nil }
        let name = String(base.dropLast(".desktop".count))
        return DBusSyntax.isValidBusName(name) ? name : nil
    }
}

/// The terminal emulators a `Terminal=true` application may run in (API.md §4.1).
public enum TerminalEmulator {
    /// The argv prefixes to try, in order: `$TERMINAL -e` when set, then
    /// `x-terminal-emulator -e` (Debian's alternative), `gnome-terminal --`, `konsole -e`,
    /// `xterm -e`. The first whose program is on `PATH` is used; with none the application is
    /// unavailable. The flags are the ones GIO passes to the same terminals.
    public static func prefixes(environment: [String: String]) -> [[String]] {
        var result: [[String]] = []
        if let terminal = environment["TERMINAL"], !terminal.isEmpty,
            !terminal.contains(where: { $0 == " " || $0 == "\t" })
        {
            result.append([terminal, "-e"])
        }
        result += [
            ["x-terminal-emulator", "-e"], ["gnome-terminal", "--"], ["konsole", "-e"], ["xterm", "-e"],
        ]
        return result
    }
}
