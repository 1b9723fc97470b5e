// What the read-only address shows: the site, the full URL on focus, and the security indicator.
import Foundation
import Navigation

/// The address of the page shown, as the header bar draws it.
///
/// The site is the registrable domain (with a port other than the scheme's default) from
/// Navigation's `SiteAddress`, so that `login.example.com.evil.net` reads `evil.net`. The
/// security indicator comes from the engine's TLS state, not from the scheme alone: a page is
/// `secure` only when WebKit has its certificate and found no error, and a certificate error
/// is `notSecure` whatever the scheme says.
public struct AddressBar: Sendable, Equatable {
    /// The registrable domain and port, e.g. `example.org` or `127.0.0.1:8080`.
    public let site: String
    /// The whole URL, shown (selectable) while the address has the focus.
    public let fullURL: String
    public let security: SecurityIndicator

    /// - `tlsVerified`: `webkit_web_view_get_tls_info` returned a certificate with no errors.
    /// - `certificateError`: the load was stopped for a certificate error.
    public init(url: URL?, tlsVerified: Bool, certificateError: Bool) {
        fullURL = url?.absoluteString ?? ""
        if let url, let address = SiteAddress(url: url) {
            site =
                address.registrableDomain.isEmpty
                ? address.text : address.registrableDomain + address.portSuffix
        } else {
            site = fullURL
        }
        let scheme = url?.scheme?.lowercased()
        if certificateError {
            security = .notSecure
        } else if scheme == "file" {
            security = .local
        } else if scheme == "https", tlsVerified {
            security = .secure
        } else {
            security = .notSecure
        }
    }

    /// The words beside the address: "Not Secure" when not secure, nothing otherwise (a lock
    /// icon says "secure").
    public var securityLabel: String? { security == .notSecure ? security.label : nil }

    /// The icon for the indicator (freedesktop names).
    public var securityIcon: String {
        switch security {
        case .secure: "channel-secure-symbolic"
        case .notSecure: "channel-insecure-symbolic"
        case .local: "drive-harddisk-symbolic"
        }
    }
}
