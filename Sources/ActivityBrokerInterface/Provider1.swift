// The org.activitybroker.Provider1 interface (API.md §6), implemented by extensions.
import DBus

/// What a registered extension serves at its object path.
public enum Provider1: WireInterface {
    public static let interface: InterfaceName = "org.activitybroker.Provider1"

    /// `Perform(s id, a{sv} items, a{sv} options) → (s state, a{sv} results)`; `state` is a
    /// final `JobState`, options are `performOptions`.
    public static let perform = method(
        "Perform", in: "s id, a{sv} items, a{sv} options", out: "s state, a{sv} results")

    /// The options the broker passes to a provider's `Perform`.
    public static let performOptions: [String: Signature] = [OptionKey.activationToken: "s"]
}
