// ReadingListError: why the Reading List refuses a Perform, with the broker's error name for each.
import ActivityBrokerInterface
import DBus

/// A refused `Perform`. Each case answers with an `org.activitybroker.Error.*` name (API.md §7),
/// so the broker and a test can tell them apart without reading messages.
enum ReadingListError: Error, DBusErrorConvertible {
    /// The caller is not the broker (the owner of `org.activitybroker.Broker1`).
    case notTheBroker(String)
    /// The id is not the one activity served here.
    case unknownActivity(String)
    /// The URL is missing, too long, or not an http(s) URL.
    case invalidURL(String)
    /// The list already holds `ReadingList.maxEntries` entries.
    case full
    /// The list file exists but could not be read (not ENOENT); it is left as it was.
    case unreadable(path: String, reason: String)
    /// The list file is over `ReadingList.maxFileSize` bytes; it is left as it was.
    case tooLarge(path: String)

    var dbusError: DBusError {
        switch self {
        case .notTheBroker(let sender):
            return DBusError(
                name: BrokerErrorName.accessDenied.rawValue,
                message: "only the broker (\(Broker1.busName)) may call Perform; \(sender) is not its owner")
        case .unknownActivity(let id):
            return DBusError(
                name: BrokerErrorName.notFound.rawValue, message: "this provider serves no activity '\(id.prefix(80))'")
        case .invalidURL(let why):
            return DBusError(name: BrokerErrorName.invalidArgument.rawValue, message: "url: \(why)")
        case .full:
            return DBusError(
                name: BrokerErrorName.limitExceeded.rawValue,
                message: "the reading list holds \(ReadingList.maxEntries) entries, its limit")
        case .unreadable(let path, let reason):
            return DBusError(
                name: BrokerErrorName.providerFailed.rawValue,
                message: "cannot read the reading list \(path): \(reason); it was left unchanged")
        case .tooLarge(let path):
            return DBusError(
                name: BrokerErrorName.limitExceeded.rawValue,
                message:
                    "the reading list \(path) is larger than \(ReadingList.maxFileSize) bytes; it was left unchanged")
        }
    }
}
