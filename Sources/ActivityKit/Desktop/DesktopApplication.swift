// An installed application found by DesktopApplicationScanner: what the broker needs to offer "Open in <Name>".

/// An installed application (a `Type=Application` desktop entry that GIO would load), as the
/// broker needs it for API.md §4.1.
public struct DesktopApplication: Hashable, Sendable {
    /// The desktop file id, e.g. `org.mozilla.firefox.desktop`.
    public var desktopID: String
    /// `desktop.` + the id without `.desktop`, e.g. `desktop.org.mozilla.firefox`; checked
    /// to be a valid activity id (`[A-Za-z0-9_.-]`, at most 255 characters).
    public var activityID: String
    /// The unlocalized `Name`.
    public var name: String
    /// Translations of `Name`: locale as written in the file (`de`, `pt_BR`, `sr@latin`) → name.
    public var names: [String: String]
    /// The `Icon` value (an icon name or absolute path), if any.
    public var icon: String?
    /// Lowercased schemes from `MimeType=x-scheme-handler/<scheme>`, in file order, without
    /// duplicates. What the entry itself claims; mimeapps.list may add or remove schemes
    /// (`DesktopHandlers` has the result).
    public var schemes: [String]
    /// The whole `MimeType=` list.
    public var mimeTypes: [String]
    /// The argv template for the broker's exec dispatcher (`{url}` where the URL goes,
    /// literal braces doubled), or `nil` when there is no Exec line or it takes only local
    /// files (`%f`/`%F`) and so cannot be given a URL. Without any file code there is no
    /// `{url}`: the program is started without the URL, as the specification says.
    public var argvTemplate: [String]?
    /// The Exec line's URL field code (`u` or `U`) when `argvTemplate` puts the URL in,
    /// else `nil`. What decides whether the URL is passed: a literal `{url}` in the Exec line
    /// is in the template too, escaped as `{{url}}`, and passes nothing.
    public var urlFieldCode: Character?
    /// The desktop file's full path (directory + relative path).
    public var path: String
    /// The applications directory it was found in.
    public var directory: String
    /// `NoDisplay=true`: hidden from menus but still a handler, so still offered.
    public var noDisplay: Bool
    /// `Terminal=true`: the program runs inside a terminal emulator.
    public var terminal: Bool
    /// `Path=`: the working directory of the program (`nil` when absent or empty).
    public var workingDirectory: String?
    /// The D-Bus name to call `org.freedesktop.Application.Open` on, when the entry says
    /// `DBusActivatable=true` and its file name (without `.desktop`) is a valid well-known
    /// bus name, as GIO requires; `nil` otherwise (launched through `Exec`).
    public var busName: String?
    /// `StartupNotify=true`.
    public var startupNotify: Bool

    /// Whether the broker can open URLs with it: through D-Bus, or an Exec line that takes a URL.
    public var canOpenURLs: Bool { launch != nil }

    /// How the broker launches it with a URL, or `nil` when it cannot take one.
    public var launch: DesktopLaunch? { DesktopLaunch(self) }
}
