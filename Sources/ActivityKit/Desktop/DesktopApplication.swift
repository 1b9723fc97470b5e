// An installed application found by DesktopApplicationScanner: what the broker needs to offer "Open in <Name>".

/// An installed application (a valid `Type=Application` desktop entry), as the broker
/// needs it for API.md §4.1.
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
    /// Lowercased schemes from `MimeType=x-scheme-handler/<scheme>`, in file order, without duplicates.
    public var schemes: [String]
    /// The whole `MimeType=` list, for the mimeapps.list association algorithm.
    public var mimeTypes: [String]
    /// The argv template for the broker's exec dispatcher (`{url}` where the URL goes,
    /// literal braces doubled), or `nil` when the Exec line takes only local files
    /// (`%f`/`%F`) and so cannot be given a URL. Without any file code there is no `{url}`:
    /// the program is started without the URL, as the specification says.
    public var argvTemplate: [String]?
    /// The desktop file's full path (directory + relative path).
    public var path: String
    /// The applications directory it was found in.
    public var directory: String
    /// `NoDisplay=true`: hidden from menus but still a handler, so still offered.
    public var noDisplay: Bool

    /// Whether the broker can offer it for URLs: it handles some scheme and its Exec line can take a URL.
    public var canOpenURLs: Bool {
        !schemes.isEmpty && (argvTemplate?.contains { $0.contains("{url}") } ?? false)
    }

    /// This entry as the mime-apps algorithms see it.
    public var mimeAppsEntry: MimeAppsInstalledEntry {
        MimeAppsInstalledEntry(desktopID: desktopID, directory: directory, mimeTypes: mimeTypes)
    }
}
