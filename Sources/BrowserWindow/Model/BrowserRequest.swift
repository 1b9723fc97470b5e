// The arguments of Browser1.Open, checked and decoded into what a window needs.
import DBus
import Foundation
import GtkSupport

/// One `Open(o handle, s app_id, s parent_window, s url, a{sv} options)` call, validated.
public struct BrowserRequest: Sendable {
    public let handle: ObjectPath
    public let appID: String
    public let parentWindow: ParentWindow
    public let url: URL
    public let options: BrowserOptions

    /// Throws `InvalidArgs` naming what is wrong: a URL that is not absolute http(s) with a
    /// host, a bad `parent_window`, or an option outside the allow-list.
    public init(body: [Value]) throws(DBusError) {
        guard body.count == 5, let handle = body[0].objectPath, let appID = body[1].string,
            let parent = body[2].string, let text = body[3].string, let options = body[4].vardict
        else { throw .invalidArgs("Open expects (o, s, s, s, a{sv})") }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { throw .invalidArgs("url '\(text)' is not an http or https URL with a host") }
        self.handle = handle
        self.appID = appID
        guard let parentWindow = ParentWindow(parent) else { throw .invalidArgs(ParentWindow.problem(parent)) }
        self.parentWindow = parentWindow
        self.url = url
        self.options = try BrowserOptions(options)
    }
}
