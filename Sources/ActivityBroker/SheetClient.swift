// The broker's side of org.activitybroker.impl.Sheet1: Show, Update and Close on the sheet service.
import ActivityBrokerInterface
import DBus
import Dispatch
import Glibc

/// What the sheet answered to `Show`.
enum SheetResponse: Sendable {
    /// The user chose an activity; the sheet's activation token lets the launched app take focus.
    case chosen(activityID: String, activationToken: String?)
    case cancelled
    /// The sheet could not show itself, with its reason.
    case failed(String)
}

/// The broker's client of the share sheet service.
typealias SheetClient = UIServiceClient<Sheet1>

extension UIServiceClient where Service == Sheet1 {
    /// `Show`, activating the service if need be. `completion` runs once on the loop with the
    /// response, or the D-Bus error (the service failed to start, crashed, or `timeout`
    /// passed); a reply of the wrong shape is `InvalidSignature`. Cancel the returned call to
    /// stop waiting.
    func show(
        handle: ObjectPath, appID: String, parentWindow: String, items: [String: Value], activities: [Value],
        options: [String: Value], timeout: Duration, completion: @escaping (Result<SheetResponse, DBusError>) -> Void
    ) -> PendingCall {
        call(
            Sheet1.show,
            [
                .objectPath(handle), .string(appID), .string(parentWindow), .vardict(items),
                .array(element: "a{sv}", activities), .vardict(options),
            ],
            timeout: timeout
        ) { result in
            completion(result.flatMap(Self.response))
        }
    }

    /// `Update(handle, state, message)`: the progress of the chosen activity. Fire and forget:
    /// a sheet that went away meanwhile changes nothing about the job.
    func update(handle: ObjectPath, state: JobState, message: String) {
        notify(Sheet1.update, [.objectPath(handle), .string(state.rawValue), .string(message)])
    }

    /// `Close(handle)`: the caller cancelled, left, or the time ran out. Fire and forget.
    func close(handle: ObjectPath) {
        notify(Sheet1.close, [.objectPath(handle)])
    }

    /// Reads `(u response, a{sv} results)`.
    static func response(_ values: [Value]) -> Result<SheetResponse, DBusError> {
        let malformed = DBusError(
            name: "org.freedesktop.DBus.Error.InvalidSignature",
            message: "the share sheet answered Show with something other than (u response, a{sv} results)")
        guard values.count == 2, let code = values[0].uint32, let results = values[1].vardict else {
            return .failure(malformed)
        }
        switch Sheet1.Response(rawValue: code) {
        case .chosen?:
            guard let id = results[Sheet1.ShowResultKey.activityID]?.string else {
                return .failure(
                    DBusError(
                        name: malformed.name, message: "the share sheet answered 'chosen' without an activity_id"))
            }
            return .success(.chosen(activityID: id, activationToken: results[Sheet1.ShowResultKey.activationToken]?.string))
        case .cancelled?:
            return .success(.cancelled)
        case .failed?:
            return .success(.failed(results[ResultKey.message]?.string ?? "no reason given"))
        case nil:
            return .failure(DBusError(name: malformed.name, message: "the share sheet answered with response \(code)"))
        }
    }
}
