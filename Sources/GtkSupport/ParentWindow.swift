// Where a window belongs, in the portal convention: "", x11:<hex XID> or wayland:<handle>; shared by the sheet and the browser.
import CGtk

/// The `parent_window` argument of the sheet's `Show` and the browser's `Open`, parsed once
/// for both UIs (the broker checks the same grammar on its side before calling them).
public enum ParentWindow: Hashable, Sendable {
    case none
    case x11(UInt)
    /// An xdg-foreign-v2 handle exported by the parent's client.
    case wayland(String)

    /// What a malformed `parent_window` is told (callers throw it as `InvalidArgs`).
    public static func problem(_ text: String) -> String {
        "parent_window '\(text)' is neither \"\", x11:<hex window id> nor wayland:<handle>"
    }

    /// Parses `text`; nil for anything but `""`, `x11:<hex>` (with or without `0x`, not 0)
    /// and `wayland:<handle>`.
    public init?(_ text: String) {
        if text.isEmpty {
            self = .none
        } else if text.hasPrefix("x11:") {
            var digits = text.dropFirst(4)
            if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
            guard let xid = UInt(digits, radix: 16), xid != 0 else { return nil }
            self = .x11(xid)
        } else if text.hasPrefix("wayland:"), text.count > "wayland:".count {
            self = .wayland(String(text.dropFirst(8)))
        } else {
            return nil
        }
    }

    /// Makes `window` transient for the parent (GTK 4 has no API for a foreign parent): on
    /// X11 once it is mapped, on Wayland (xdg-foreign) once it is realized; nothing for
    /// `.none`. Call before presenting the window.
    @MainActor
    public func attach(_ window: Widget) {
        switch self {
        case .none: break
        case .x11(let xid):
            GtkSignals.connect(window, "map") { _ = cgtk_set_x11_transient_for(window, UInt(xid)) }
        case .wayland(let handle):
            GtkSignals.connect(window, "realize") { _ = cgtk_set_wayland_transient_for(window, handle) }
        }
    }
}
