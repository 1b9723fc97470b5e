// RegistrableDomain: the site of a host (its registrable domain), by the Public Suffix List or, without it, an approximation.

/// The registrable domain ("site") of a normalized host, as Private Click Measurement compares
/// sites (API.md §11) and the address bars emphasise it: by the system's Public Suffix List
/// (`PublicSuffixList.system`, Debian's `publicsuffix` package), so `alice.github.io` and
/// `bob.github.io` are two sites and a report for one goes to that one. IP literals are their
/// own site.
///
/// Without the list it is approximated: the last two labels, or the last three when the last
/// two are a common two-level public suffix (`co.uk`, `com.au`, … in `twoLevelSuffixes`);
/// other suffixes count as ordinary domains, so a private suffix groups its tenants into one
/// site (a click on one is then accepted from another tenant's page).
public enum RegistrableDomain {
    /// Two-label public suffixes under which names are registered one label deeper: the
    /// approximation's, used only without the system's list.
    public static let twoLevelSuffixes: Set<String> = [
        "co.uk", "org.uk", "ac.uk", "gov.uk", "me.uk", "net.uk", "ltd.uk", "plc.uk", "sch.uk", "nhs.uk",
        "com.au", "net.au", "org.au", "edu.au", "gov.au", "asn.au", "id.au",
        "co.nz", "org.nz", "net.nz", "govt.nz", "ac.nz",
        "co.jp", "ne.jp", "or.jp", "ac.jp", "go.jp", "gr.jp",
        "co.za", "org.za", "gov.za", "com.br", "net.br", "org.br", "gov.br", "com.cn", "net.cn", "org.cn",
        "gov.cn", "com.mx", "org.mx", "gob.mx", "co.in", "net.in", "org.in", "gov.in", "ac.in",
        "co.kr", "or.kr", "go.kr", "com.tw", "org.tw", "gov.tw", "com.sg", "edu.sg", "gov.sg", "com.hk",
        "org.hk", "gov.hk", "co.il", "org.il", "ac.il", "com.tr", "org.tr", "gov.tr", "com.ar", "gob.ar",
        "co.id", "or.id", "go.id", "com.my", "gov.my", "com.ph", "com.vn", "com.ua", "co.th", "in.th",
        "ac.th", "com.pl", "com.es", "com.co", "com.pe", "com.ng", "co.ke", "com.eg", "com.sa",
    ]

    /// The registrable domain of `host` (lower-cased, without a trailing dot, as `SharedURL`
    /// gives it); an IP literal (IPv4 dotted or IPv6 with `:`) is returned whole.
    public static func of(host: String) -> String {
        of(host: host, suffixes: PublicSuffixList.system)
    }

    /// `of(host:)` by `suffixes`, or by the approximation when nil.
    public static func of(host: String, suffixes: PublicSuffixList?) -> String {
        let host = host.lowercased()
        if host.contains(":") || isIPv4(host) { return host }
        if let suffixes { return suffixes.registrableDomain(of: host) }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count > 2 else { return host }
        let lastTwo = labels.suffix(2).joined(separator: ".")
        let keep = twoLevelSuffixes.contains(lastTwo) ? 3 : 2
        return labels.suffix(keep).joined(separator: ".")
    }

    /// Whether `text` is a site click measurement can keep and read back (its store file's rule):
    /// 1 to 253 bytes of lower-case letters, digits, `.`, `-` and `:` (an IPv6 literal). Hosts
    /// may hold more (`_`, `~`, sub-delimiters): such a site is refused where it comes in, since
    /// a store holding one could not be read again and would be lost whole.
    public static func isSite(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 253
            && text.utf8.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x3A
            }
    }

    /// The site of a parsed URL: the registrable domain of its host; nil without a host.
    public static func of(_ url: SharedURL) -> String? {
        guard let host = url.host, !host.isEmpty else { return nil }
        return of(host: host)
    }

    private static func isIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy {
                !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber)
            }
    }
}
