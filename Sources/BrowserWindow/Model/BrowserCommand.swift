// What the window's keys and buttons ask for, apart from any toolkit.

/// A user command of the window (API.md §10's keys: Esc and Ctrl+W dismiss, Alt+Left/Right go
/// back and forward, Ctrl+L selects the address, Ctrl+R reloads).
public enum BrowserCommand: Sendable, Equatable {
    case dismiss, back, forward, focusAddress, reload
}

/// The labels and accessible names of the window's controls (English; the dismiss button's
/// label is Navigation's `DismissButtonStyle.title`).
public enum BrowserStrings {
    public static let back = "Back", forward = "Forward", reader = "Reader", share = "Share"
    public static let openInBrowser = "Open in Browser", address = "Address", reload = "Reload"
    public static let certificateErrorTitle = "Certificate Error"

    /// The error page for a certificate the engine refused for `url`.
    public static func certificateErrorPage(url: String, reason: String) -> String {
        let host = ReaderArticle.escape(url)
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(certificateErrorTitle)</title>
            <style>
            :root { color-scheme: light dark; }
            body { font: 16px/1.5 sans-serif; max-width: 36em; margin: 4em auto; padding: 0 1.5em; }
            h1 { font-size: 1.5em; color: #c01c28; }
            code { word-break: break-all; }
            </style></head>
            <body><h1>This connection is not private</h1>
            <p>The certificate of <code>\(host)</code> cannot be trusted: \(ReaderArticle.escape(reason)).</p>
            <p>Someone could be impersonating the site to steal what you send it. The page was not loaded.</p>
            </body></html>
            """
    }

    public static let pageStoppedTitle = "Page Stopped"

    /// The page shown in place of one whose web process ended (`webProcessProblem`'s reason).
    public static func webProcessErrorPage(reason: String) -> String {
        """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>\(pageStoppedTitle)</title>
        <style>
        :root { color-scheme: light dark; }
        body { font: 16px/1.5 sans-serif; max-width: 36em; margin: 4em auto; padding: 0 1.5em; }
        h1 { font-size: 1.5em; }
        </style></head>
        <body><h1>This page stopped</h1>
        <p>The page could not go on: \(ReaderArticle.escape(reason)). Reload it to try again.</p>
        </body></html>
        """
    }

    /// Why a web process ended, from `WebKitWebProcessTerminationReason`.
    public static func webProcessProblem(_ reason: UInt32) -> String {
        switch reason {
        case 0: "it crashed"
        case 1: "it used too much memory"
        case 2: "it was stopped"
        default: "it ended"
        }
    }

    /// Why a certificate was refused, from GIO's `GTlsCertificateFlags` bits.
    public static func certificateProblem(_ flags: UInt32) -> String {
        var problems: [String] = []
        if flags & 0x01 != 0 { problems.append("it is signed by an unknown authority") }
        if flags & 0x02 != 0 { problems.append("it is for another site") }
        if flags & 0x04 != 0 { problems.append("it is not valid yet") }
        if flags & 0x08 != 0 { problems.append("it has expired") }
        if flags & 0x10 != 0 { problems.append("it has been revoked") }
        if flags & 0x20 != 0 { problems.append("it uses an insecure algorithm") }
        return problems.isEmpty ? "it is invalid" : problems.joined(separator: ", ")
    }
}
