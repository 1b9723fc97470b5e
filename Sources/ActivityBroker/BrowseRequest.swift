// Broker1.Browse's arguments, checked: the http(s) URL, the window's options, the exclusions, the click attribution.
import ActivityBrokerInterface
import ActivityKit
import DBus

/// What one `Browse` asked for, every value checked before a session exists (API.md §10, §11).
struct BrowseRequest {
    let url: SharedURL
    let parentWindow: String
    /// The options passed to `Browser1.Open`: the caller's, without `event_attribution` (the
    /// window has no use for it and the broker keeps it).
    let windowOptions: [String: Value]
    /// `exclude`, applied to the Action sheet's `Share` for this session.
    let exclude: [String]
    /// The click that led here; validated now, kept and reported by issue 17.
    let attribution: EventAttribution?

    static let schema = OptionSchema(method: Broker1.browse.name.rawValue, types: Broker1.browseOptions)
    static let dismissButtonStyles: Set<String> = ["done", "close", "cancel"]
    /// At most this many `exclude` entries (`LimitExceeded` beyond): the list is kept for the
    /// session's life and added to every Share from its window. A connection registers at most
    /// 256 activities; excluding more ids than that is not a need.
    static let maxExclusions = 256

    /// Checks the arguments of `Browse`; throws `invalidArgument` naming the bad one.
    static func decode(parentWindow: String, url text: String, options raw: [String: Value])
        throws(ActivityError)
        -> BrowseRequest
    {
        let method = Broker1.browse.name.rawValue
        let url: SharedURL
        do {
            url = try SharedURL(text)
        } catch {
            throw .invalidArgument("\(method): \(error.message)")
        }
        guard url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw .invalidArgument(
                "\(method): the URL must be http or https, got a '\(url.scheme.prefix(32))' URL")
        }
        try ShareRequests.checkParentWindow(parentWindow, method: method)
        var options = try schema.validate(raw)
        typealias Key = Browser1.OptionKey
        if let style = options[Key.dismissButtonStyle]?.string, !dismissButtonStyles.contains(style) {
            throw .invalidArgument(
                "\(method): option '\(Key.dismissButtonStyle)' must be done, close or cancel, got '\(style.prefix(32))'"
            )
        }
        for key in [Key.controlTint, Key.barTint] {
            if let tint = options[key]?.string, !isColour(tint) {
                throw .invalidArgument(
                    "\(method): option '\(key)' must be a colour #rrggbb, got '\(tint.prefix(32))'")
            }
        }
        let exclude = options[Key.exclude]?.stringArray ?? []
        try checkExclusions(exclude)
        var attribution: EventAttribution?
        if let fields = options.removeValue(forKey: Key.eventAttribution)?.vardict {
            attribution = try decodeAttribution(fields, opening: url)
        }
        return BrowseRequest(
            url: url, parentWindow: parentWindow, windowOptions: options, exclude: exclude,
            attribution: attribution)
    }

    /// `exclude`: at most `maxExclusions` entries, each an activity id's length at most (the
    /// `category:` entries are shorter), each `category:` entry naming a category.
    static func checkExclusions(_ exclude: [String]) throws(ActivityError) {
        let method = Broker1.browse.name.rawValue
        let key = Browser1.OptionKey.exclude
        guard exclude.count <= maxExclusions else {
            throw .limitExceeded(
                "\(method): option '\(key)' has \(exclude.count) entries; at most \(maxExclusions) are allowed"
            )
        }
        for (index, entry) in exclude.enumerated() where entry.utf8.count > ActivityID.maxLength {
            throw .invalidArgument(
                "\(method): option '\(key)[\(index)]' is \(entry.utf8.count) bytes long; at most \(ActivityID.maxLength) are allowed"
            )
        }
        _ = try Exclusions(exclude)
    }

    /// `#rrggbb`, hex digits in either case.
    static func isColour(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return utf8.count == 7 && utf8[0] == UInt8(ascii: "#")
            && utf8.dropFirst().allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) || ($0 >= 0x61 && $0 <= 0x66)
            }
    }

    /// `event_attribution`: every key of `EventAttributionKey.types`, of its type, then the
    /// domain's checks (`EventAttribution`).
    static func decodeAttribution(_ fields: [String: Value], opening url: SharedURL) throws(ActivityError)
        -> EventAttribution
    {
        typealias Key = EventAttributionKey
        for (key, value) in fields {
            guard let expected = Key.types[key] else {
                throw .invalidArgument(
                    "Browse: unknown event_attribution key '\(key.prefix(64))' (accepted: \(Key.types.keys.sorted().joined(separator: ", ")))"
                )
            }
            guard value.signature == expected else {
                throw .invalidArgument(
                    "Browse: event_attribution key '\(key)' must have type '\(expected.rawValue)', got '\(value.signature.rawValue)'"
                )
            }
        }
        for key in Key.types.keys.sorted() where fields[key] == nil {
            throw .invalidArgument("Browse: event_attribution needs '\(key)'")
        }
        return try EventAttribution(
            sourceIdentifier: fields[Key.sourceIdentifier]?.byte ?? 0,
            destinationURL: fields[Key.destinationURL]?.string ?? "",
            reportEndpoint: fields[Key.reportEndpoint]?.string ?? "",
            sourceDescription: fields[Key.sourceDescription]?.string ?? "",
            purchaser: fields[Key.purchaser]?.string ?? "", opening: url)
    }
}
