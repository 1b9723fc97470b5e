// Which installed applications handle each URL scheme, and which one is its default, decided per scheme.

/// The handlers of every URL scheme (`x-scheme-handler/<scheme>`) among the installed
/// applications, and each scheme's default (API.md §4.1).
///
/// Decided per scheme: an application named default for `https` is nothing special for
/// `http` unless mimeapps.list names it there too; without a named default the most
/// preferred associated application is the default, as GIO picks it.
public struct DesktopHandlers: Sendable {
    /// The MIME type prefix of URL scheme handlers.
    public static let schemeTypePrefix = "x-scheme-handler/"

    /// Scheme (lowercased) → desktop ids of installed handlers, most preferred first.
    public let handlers: [String: [String]]
    /// Scheme → the default application's desktop id.
    public let defaults: [String: String]
    private let applications: [String: DesktopApplication]
    /// Desktop id → the schemes it handles, sorted: built once, since asking `handlers` per
    /// application is schemes × handlers, per application.
    private let schemesByID: [String: [String]]

    /// Combines the scan's applications with the associations of `resolver`.
    public init(applications: [DesktopApplication], resolver: MimeAppsResolver) {
        var byID: [String: DesktopApplication] = [:]
        for application in applications where byID[application.desktopID] == nil {
            byID[application.desktopID] = application
        }
        let installed = Set(byID.keys)
        var handlers: [String: [String]] = [:]
        var defaults: [String: String] = [:]
        for mime in resolver.mimeTypes where mime.hasPrefix(Self.schemeTypePrefix) {
            let scheme = String(mime.dropFirst(Self.schemeTypePrefix.count))
            guard !scheme.isEmpty else { continue }
            let ids = resolver.associatedApplications(for: mime).filter(installed.contains)
            if !ids.isEmpty { handlers[scheme] = ids }
            if let id = resolver.defaultApplication(for: mime, installed: installed) { defaults[scheme] = id }
        }
        var schemesByID: [String: [String]] = [:]
        for (scheme, ids) in handlers {
            for id in ids { schemesByID[id, default: []].append(scheme) }
        }
        for id in schemesByID.keys { schemesByID[id]!.sort() }
        self.handlers = handlers
        self.defaults = defaults
        self.applications = byID
        self.schemesByID = schemesByID
    }

    /// The schemes `desktopID` handles, sorted.
    public func schemes(handledBy desktopID: String) -> [String] {
        schemesByID[desktopID] ?? []
    }

    /// The default application of `scheme` (any case), if one is installed.
    public func defaultApplication(for scheme: String) -> DesktopApplication? {
        defaults[scheme.lowercased()].flatMap { applications[$0] }
    }

    /// The installed application with this desktop id.
    public func application(_ desktopID: String) -> DesktopApplication? { applications[desktopID] }
}
