// AttributionTrigger: the conversion signal — a redirect to a source site's well-known trigger path.

/// A trigger (API.md §11): a load redirected to
/// `https://<source site>/.well-known/private-click-measurement/trigger-attribution/<00–15>[/<00–63>]`.
///
/// The format is exact, as WebKit's: https, no userinfo, the default port, two decimal digits
/// per field, nothing after the fields (no trailing slash, query or fragment). Anything else
/// is not a trigger, so an ordinary page load can never be mistaken for one.
public struct AttributionTrigger: Hashable, Sendable {
    public static let pathPrefix = "/.well-known/private-click-measurement/trigger-attribution/"
    public static let maximumTriggerData: UInt8 = 15
    public static let maximumPriority: UInt8 = 63

    /// The registrable domain of the redirect's host: the site that showed the ad.
    public let sourceSite: String
    /// The conversion value, 0–15.
    public let triggerData: UInt8
    /// 0–63; a later trigger replaces a pending one only with a higher priority. 0 when absent.
    public let priority: UInt8

    public init(sourceSite: String, triggerData: UInt8, priority: UInt8 = 0) {
        precondition(triggerData <= Self.maximumTriggerData && priority <= Self.maximumPriority)
        self.sourceSite = sourceSite
        self.triggerData = triggerData
        self.priority = priority
    }

    /// The trigger `url` encodes; nil when `url` is anything but the exact trigger format.
    public init?(_ url: SharedURL) {
        guard url.scheme == "https", url.userinfo == nil, url.port == nil || url.port == 443,
            url.query == nil, url.fragment == nil, let host = url.host, !host.isEmpty,
            url.path.hasPrefix(Self.pathPrefix)
        else { return nil }
        let fields = url.path.dropFirst(Self.pathPrefix.count).split(
            separator: "/", omittingEmptySubsequences: false)
        guard fields.count == 1 || fields.count == 2,
            let data = Self.twoDigits(fields[0]), data <= Self.maximumTriggerData
        else { return nil }
        var priority: UInt8 = 0
        if fields.count == 2 {
            guard let value = Self.twoDigits(fields[1]), value <= Self.maximumPriority else { return nil }
            priority = value
        }
        // A site click measurement cannot keep is no trigger (no click can be on it either).
        let site = RegistrableDomain.of(host: host)
        guard RegistrableDomain.isSite(site) else { return nil }
        self.init(sourceSite: site, triggerData: data, priority: priority)
    }

    /// Parses `text` as a URL first; nil when it is not a URL or not a trigger.
    public init?(_ text: String) {
        guard let url = try? SharedURL(text) else { return nil }
        self.init(url)
    }

    private static func twoDigits(_ text: Substring) -> UInt8? {
        guard text.utf8.count == 2, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return UInt8(text)
    }
}
