// How `share list` and `share activities` print activities: aligned text or stable JSON.
import ActivityBrokerClient
import Foundation
import TerminalUI

enum ActivityListing {
    /// `share list`: one activity a line — number, category, name, id — as the broker ranked.
    ///
    /// Names come from other programs (any app on the bus can register one): they are
    /// sanitized, so no escape sequence reaches the terminal, and padded by display width,
    /// so that wide (CJK) names keep the id column aligned.
    static func table(_ activities: [OfferedActivity]) -> String {
        guard !activities.isEmpty else { return "No activity applies to this URL." }
        let names = activities.map { TextSanitizer.sanitize($0.name) }
        let width = names.map(DisplayWidth.of).max() ?? 0
        let numberWidth = String(activities.count).count
        return zip(activities, names).enumerated().map { index, pair in
            let (activity, name) = pair
            let number = String(index + 1).leftPadded(to: numberWidth)
            let category = activity.category == "share" ? "share " : "action"
            return
                "\(number)  \(category)  \(DisplayWidth.pad(name, toWidth: width))  \(TextSanitizer.sanitize(activity.id))"
        }.joined(separator: "\n")
    }

    /// `share activities`: every registered activity with availability and reason.
    static func registeredTable(_ activities: [OfferedActivity]) -> String {
        guard !activities.isEmpty else { return "No activity is registered." }
        let ids = activities.map { TextSanitizer.sanitize($0.id) }
        let idWidth = ids.map(DisplayWidth.of).max() ?? 0
        return zip(activities, ids).map { activity, id in
            let mark = activity.available == false ? "unavailable" : "available  "
            var line = "\(mark)  \(DisplayWidth.pad(id, toWidth: idWidth))  "
            line += "\(TextSanitizer.sanitize(activity.name)) [\(TextSanitizer.sanitize(activity.origin))]"
            if let reason = activity.reason, activity.available == false {
                line += " — \(TextSanitizer.sanitize(reason))"
            }
            return line
        }.joined(separator: "\n")
    }

    /// The documented JSON form: an array of objects with `id`, `name`, `icon`, `category`,
    /// `origin`, and for `share activities` also `available` and (when unavailable) `reason`.
    /// Keys sorted, so the same activities always give the same bytes; an empty list is `[]`.
    /// Control characters and bidi overrides in names are written as `\uXXXX` escapes.
    static func json(_ activities: [OfferedActivity]) -> String {
        guard !activities.isEmpty else { return "[]" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(activities)) ?? Data("[]".utf8)
        return TextSanitizer.escapingJSON(String(decoding: data, as: UTF8.self))
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
