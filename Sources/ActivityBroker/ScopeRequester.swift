// Moves each launched child into a transient systemd scope of its own when a systemd user manager is on the bus.
import ActivityKit
import DBus
import Dispatch
import Glibc

/// Asks the systemd user manager to put each child the broker launches in its own transient
/// scope, `app-activitybroker-<escaped activity id>-<pid>.scope` (the naming of systemd's
/// "Desktop Environment Integration" document for launched applications).
///
/// Why: the broker's unit owns a cgroup, and everything in it goes when the unit stops. A
/// browser the broker opened would die with a broker restart (or an upgrade); in a scope of
/// its own it lives on, and the desktop sees it as an application. Only when
/// `org.freedesktop.systemd1` has an owner (a watch keeps that known without a call per
/// launch); without one children stay where they are, as before. The request never delays
/// or fails a job: a refusal is logged once (debug) and the child runs on in our cgroup.
///
/// A child that forks before the manager moved it leaves that fork in our cgroup: the move
/// follows the spawn, asynchronously, as every launcher that does this after the spawn must.
/// Loop-confined, like the dispatcher that owns it.
final class ScopeRequester: @unchecked Sendable {
    static let managerName: BusName = "org.freedesktop.systemd1"
    static let managerPath: ObjectPath = "/org/freedesktop/systemd1"
    static let managerInterface: InterfaceName = "org.freedesktop.systemd1.Manager"
    static let startTransientUnit: MemberName = "StartTransientUnit"
    /// The unit names' prefix: `app-<launcher>-`.
    static let prefix = "app-activitybroker-"

    private let connection: Connection
    private let log: BrokerLog
    private var managerPresent = false
    private var loggedFailure = false
    private var watch: Subscription?

    init(connection: Connection, log: BrokerLog) {
        self.connection = connection
        self.log = log
        watch = connection.watchNameOwner(Self.managerName) { [weak self] owner in
            self?.managerPresent = owner != nil
        }
    }

    deinit {
        if let watch { connection.cancel(watch) }
    }

    /// Requests a scope for the child `pid` launched for `activity`. Runs on the loop.
    func moveToScope(pid: Int32, activity: ActivityID) {
        connection.assertOnLoop()
        guard managerPresent else { return }
        let unit = Self.unitName(activity: activity.rawValue, pid: pid)
        let properties: Value = .propertyArray([
            ("PIDs", .array(element: "u", [.uint32(UInt32(bitPattern: pid))])),
            ("Description", .string("\(activity.rawValue), launched by the Activity Broker")),
            ("CollectMode", .string("inactive-or-failed")),
        ])
        let call = MethodCall(
            destination: Self.managerName, path: Self.managerPath, interface: Self.managerInterface,
            member: Self.startTransientUnit,
            body: [.string(unit), .string("fail"), properties, .array(element: "(sa(sv))", [])])
        connection.call(call, autoStart: false) { [weak self] result in
            guard let self, case .failure(let error) = result, !loggedFailure else { return }
            loggedFailure = true
            log.debug(
                "launched programs stay in the broker's cgroup: StartTransientUnit failed: \(error.name): \(error.message)"
            )
        }
    }

    /// `app-activitybroker-<id escaped>-<pid>.scope`; the pid keeps names unique among the
    /// scopes alive, also across broker restarts.
    static func unitName(activity: String, pid: Int32) -> String {
        let suffix = "-\(pid).scope"
        // A unit name has at most 255 bytes; an escape is never cut in half.
        let room = 255 - prefix.utf8.count - suffix.utf8.count
        var escaped = ""
        for piece in escapedPieces(activity) {
            if escaped.utf8.count + piece.utf8.count > room { break }
            escaped += piece
        }
        return prefix + escaped + suffix
    }

    /// systemd's escaping of a name component (`systemd-escape`): ASCII letters, digits, `:`,
    /// `_` and `.` (not first) stay; every other byte, `-` included (it separates the name's
    /// parts), becomes `\xNN`.
    static func escapedPieces(_ text: String) -> [String] {
        var pieces: [String] = []
        for (index, byte) in text.utf8.enumerated() {
            let keep =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_")
                || (byte == UInt8(ascii: ".") && index > 0)
            if keep {
                pieces.append(String(UnicodeScalar(byte)))
            } else {
                let hex = String(byte, radix: 16)
                pieces.append("\\x" + (hex.count == 1 ? "0" + hex : hex))
            }
        }
        return pieces
    }
}
