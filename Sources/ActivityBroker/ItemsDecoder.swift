// Turns the `a{sv}` items of a call into validated domain `Items` (API.md §2).
import ActivityBrokerInterface
import ActivityKit
import DBus

/// Decodes shared items. Unknown keys are ignored for forward compatibility; a known key
/// with the wrong type, a missing or invalid `url`, or an oversized value is `invalidArgument`.
enum ItemsDecoder {
    static func decode(_ items: [String: Value]) throws(ActivityError) -> Items {
        guard let urlValue = items[ItemKey.url] else {
            throw .invalidArgument("items: '\(ItemKey.url)' is required (an absolute URL as a string)")
        }
        let url = try string(urlValue, key: ItemKey.url)
        return try Items(
            url: url, title: optionalString(items[ItemKey.title], key: ItemKey.title),
            text: optionalString(items[ItemKey.text], key: ItemKey.text))
    }

    /// `items` checked as `decode` checks them, with only the keys `decode` reads: what a
    /// `Perform` keeps while it waits on the bus is then bounded by the items' own limits,
    /// whatever else a caller sent (unknown keys are ignored, not limited).
    static func checkedForWaiting(_ items: [String: Value]) throws(ActivityError) -> [String: Value] {
        _ = try decode(items)
        return items.filter { ItemKey.known.contains($0.key) }
    }

    private static func optionalString(_ value: Value?, key: String) throws(ActivityError) -> String? {
        guard let value else { return nil }
        return try string(value, key: key)
    }

    private static func string(_ value: Value, key: String) throws(ActivityError) -> String {
        guard let string = value.string else {
            throw .invalidArgument("items: '\(key)' must be a string (s), got '\(value.signature.rawValue)'")
        }
        return string
    }
}
