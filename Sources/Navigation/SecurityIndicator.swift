// SecurityIndicator: the padlock state of the read-only address, decided from a load's redirect chain.

import Foundation

/// How the current page was loaded, for the address bar's indicator.
public enum SecurityIndicator: String, Hashable, Sendable {
    /// Loaded over https without error, and no hop of the chain fell back to http after https.
    case secure
    /// Loaded over http, failed, or an https request was redirected through http.
    case notSecure
    /// Read from the local disk (`file:`).
    case local

    /// The words shown next to the address: "Secure", "Not Secure", "Local File".
    public var label: String {
        switch self {
        case .secure: "Secure"
        case .notSecure: "Not Secure"
        case .local: "Local File"
        }
    }

    /// The indicator for a load that went through `chain` (the requested URL, then each
    /// redirect target; the last is the page shown).
    ///
    /// The schemes of the chain decide, so the downgrade rule can be checked without TLS:
    /// a page is `secure` only when the final URL is https, the load succeeded, and no hop
    /// went from https to http — once the user's https request crossed plain http, anyone
    /// on the path could have chosen where it ended. An http start that upgrades to https
    /// is `secure`: the page shown came over TLS from the host shown. A failed load is
    /// `notSecure` (there is no page to vouch for), except a local file.
    public static func evaluate(chain: [URL], succeeded: Bool) -> SecurityIndicator {
        guard !chain.isEmpty else { return .notSecure }
        let schemes = chain.map { $0.scheme?.lowercased() ?? "" }
        if schemes.last == "file" { return .local }
        guard succeeded, schemes.last == "https" else { return .notSecure }
        var sawHTTPS = false
        for scheme in schemes {
            if scheme == "https" { sawHTTPS = true }
            if scheme == "http", sawHTTPS { return .notSecure }
        }
        return .secure
    }
}
