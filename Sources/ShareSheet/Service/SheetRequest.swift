// The arguments of Sheet1.Show, checked and decoded into what the model and the window need.
import ActivityBrokerInterface
import DBus
import GtkSupport

/// One `Show` call, validated. Decoding throws `InvalidArgs` naming the bad key, the way the
/// broker checks its own options (allow-list of key → type); unknown keys are ignored so a
/// newer broker can send more.
struct SheetRequest: Sendable {
    let handle: ObjectPath
    let appID: String
    let parentWindow: ParentWindow
    let title: String
    let url: String
    let activities: [SheetActivity]
    let locale: String?
    let activationToken: String?

    /// Decodes `Show(o handle, s app_id, s parent_window, a{sv} items, aa{sv} activities, a{sv} options)`.
    init(body: [Value]) throws(DBusError) {
        guard body.count == 6, let handle = body[0].objectPath, let appID = body[1].string,
            let parent = body[2].string, let items = body[3].vardict, let records = body[4].array,
            let options = body[5].vardict
        else { throw .invalidArgs("Show expects (o, s, s, a{sv}, aa{sv}, a{sv})") }
        self.handle = handle
        self.appID = appID
        parentWindow = try Self.parentWindow(parent)

        guard let url = items[ItemKey.url]?.string, !url.isEmpty else {
            throw .invalidArgs("items needs key '\(ItemKey.url)' (s)")
        }
        self.url = url
        title = try Self.optionalString(items, ItemKey.title, in: "items") ?? ""

        guard !records.isEmpty else { throw .invalidArgs("activities is empty: there is nothing to offer") }
        var seen = Set<String>()
        activities = try records.enumerated().map { (index, record) throws(DBusError) in
            guard let fields = record.vardict else { throw .invalidArgs("activities[\(index)] is not a{sv}") }
            let activity = try Self.activity(fields, index: index)
            guard seen.insert(activity.id).inserted else {
                throw .invalidArgs("activities[\(index)]: id '\(activity.id)' appears twice")
            }
            return activity
        }
        locale = try Self.optionalString(options, OptionKey.locale, in: "options")
        activationToken = try Self.optionalString(options, OptionKey.activationToken, in: "options")
    }

    private static func activity(_ fields: [String: Value], index: Int) throws(DBusError) -> SheetActivity {
        let place = "activities[\(index)]"
        guard let id = fields[RecordKey.id]?.string, !id.isEmpty else {
            throw .invalidArgs("\(place) needs key 'id' (s)")
        }
        guard let name = fields[RecordKey.name]?.string, !name.isEmpty else {
            throw .invalidArgs("\(place) needs key 'name' (s)")
        }
        let icon = try optionalString(fields, RecordKey.icon, in: place) ?? ""
        let category: SheetActivity.Category
        switch try optionalString(fields, RecordKey.category, in: place) {
        case "share": category = .share
        case "action", nil: category = .action
        case let other?: throw .invalidArgs("\(place): category '\(other)' is neither 'share' nor 'action'")
        }
        return SheetActivity(id: id, name: name, icon: icon, category: category)
    }

    private static func optionalString(_ fields: [String: Value], _ key: String, in place: String)
        throws(DBusError)
        -> String?
    {
        guard let value = fields[key] else { return nil }
        guard let string = value.string else {
            throw .invalidArgs("\(place) key '\(key)' must be a string (s), got '\(value.signature)'")
        }
        return string
    }

    /// Where the sheet belongs (GtkSupport's `ParentWindow`); `InvalidArgs` when malformed.
    static func parentWindow(_ text: String) throws(DBusError) -> ParentWindow {
        guard let parent = ParentWindow(text) else { throw .invalidArgs(ParentWindow.problem(text)) }
        return parent
    }
}
