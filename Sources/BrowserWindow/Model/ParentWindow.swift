// Where a window belongs, in the portal convention: "", x11:<hex XID> or wayland:<handle>.
import DBus

/// The `parent_window` argument of `Open`.
public enum ParentWindow: Hashable, Sendable {
    case none
    case x11(UInt)
    /// An xdg-foreign handle; not used yet (the window is not made transient on Wayland).
    case wayland(String)

    /// Parses `text`; throws `InvalidArgs` for anything else.
    public init(_ text: String) throws(DBusError) {
        if text.isEmpty {
            self = .none
            return
        }
        if text.hasPrefix("x11:") {
            var digits = text.dropFirst(4)
            if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
            guard let xid = UInt(digits, radix: 16), xid != 0 else {
                throw .invalidArgs("parent_window '\(text)' is not x11:<hex window id>")
            }
            self = .x11(xid)
            return
        }
        if text.hasPrefix("wayland:"), text.count > "wayland:".count {
            self = .wayland(String(text.dropFirst(8)))
            return
        }
        throw .invalidArgs("parent_window '\(text)' is neither \"\", x11:<hex> nor wayland:<handle>")
    }
}
