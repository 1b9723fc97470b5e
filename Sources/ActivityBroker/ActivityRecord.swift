// Encodes activities as the `a{sv}` records of API.md §2.
import ActivityKit
import DBus

enum ActivityRecord {
    /// The record `ListActivities` returns: id, localized name, icon, category, origin.
    static func offered(_ activity: Activity, locale: String?) -> [String: Value] {
        [
            "id": .string(activity.id.rawValue),
            "name": .string(activity.localizedName(for: locale)),
            "icon": .string(activity.icon),
            "category": .string(activity.category.rawValue),
            "origin": .string(activity.origin.rawValue),
        ]
    }

    /// The record `ListRegistered` returns: the offered record plus `available`, and
    /// `reason` when it is not.
    static func registered(_ activity: Activity, availability: Availability, locale: String?) -> [String: Value] {
        var record = offered(activity, locale: locale)
        switch availability {
        case .available:
            record["available"] = .boolean(true)
        case .unavailable(let reason):
            record["available"] = .boolean(false)
            record["reason"] = .string(reason)
        }
        return record
    }
}
