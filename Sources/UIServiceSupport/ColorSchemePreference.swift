// The desktop's light/dark choice as the freedesktop portal publishes it (org.freedesktop.appearance color-scheme).
import DBus
import Dispatch

/// GNOME and KDE publish the user's light/dark choice through xdg-desktop-portal's Settings
/// interface; GTK 4.8 without libadwaita does not read it, so the UI services ask once at
/// start-up and follow `SettingChanged` while running.
public enum ColorSchemePreference: UInt32, Sendable {
    case noPreference = 0
    case dark = 1
    case light = 2

    /// Whether GTK should prefer its dark theme: nil leaves GTK's own setting alone.
    public var prefersDark: Bool? {
        switch self {
        case .noPreference: nil
        case .dark: true
        case .light: false
        }
    }

    static let portal: BusName = "org.freedesktop.portal.Desktop"
    static let path: ObjectPath = "/org/freedesktop/portal/desktop"
    static let settings: InterfaceName = "org.freedesktop.portal.Settings"
    static let namespace = "org.freedesktop.appearance"
    static let key = "color-scheme"

    /// The value of a `Read` reply or `SettingChanged` signal: `u`, possibly wrapped in
    /// variants (the portal's `Read` wraps it twice).
    public init?(_ value: Value) {
        var value = value
        while case .variant(let inner) = value { value = inner }
        guard let raw = value.uint32, let scheme = Self(rawValue: raw) else { return nil }
        self = scheme
    }

    /// Asks the portal once, waiting at most `timeout`: nil when there is no portal, it
    /// does not answer in time or answers something else. Blocks the calling thread, which
    /// must not be `connection`'s loop (the reply is delivered there).
    public static func read(on connection: Connection, timeout: Duration = .milliseconds(500)) -> Self? {
        let done = DispatchSemaphore(value: 0)
        let answer = AnswerBox()
        let call = MethodCall(
            destination: portal, path: path, interface: settings, member: "Read",
            body: [.string(namespace), .string(key)])
        _ = connection.call(call, timeout: timeout) { result in
            if case .success(let values) = result, let first = values.first { answer.value = Self(first) }
            done.signal()
        }
        // The call's own timeout answers first; the margin only guards against a lost reply.
        _ = done.wait(timeout: .now() + timeout.dispatchInterval + .milliseconds(250))
        return answer.value
    }

    /// Calls `handler` on `connection`'s loop with each change of the color scheme the
    /// portal announces, until the subscription is cancelled.
    public static func follow(on connection: Connection, _ handler: @escaping @Sendable (Self) -> Void)
        -> Subscription
    {
        let rule = MatchRule(interface: settings, member: "SettingChanged", path: path, arg0: namespace)
        return connection.addMatch(rule) { signal in
            guard signal.body.count == 3, signal.body[1].string == key, let scheme = Self(signal.body[2]) else {
                return
            }
            handler(scheme)
        }
    }
}

/// The reply handed from the bus loop to the waiting thread (the semaphore orders the two).
private final class AnswerBox: @unchecked Sendable {
    var value: ColorSchemePreference?
}
