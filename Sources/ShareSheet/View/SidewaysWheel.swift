// The mouse wheel scrolls the Share row sideways while the pointer is over it.
import CGtk
import Foundation
import GtkSupport

/// Turns a plain mouse's vertical wheel into sideways scrolling of the Share row, as GNOME
/// Software's and Files' horizontal strips do.
///
/// GTK's scrolled window scrolls a horizontal-only view with the wheel only under Shift (it
/// swaps the axes), so with a plain mouse the hidden shares could be reached only by dragging
/// the scrollbar. While the pointer is over an overflowing row, a wheel click now moves the row
/// by GTK's own wheel step (`page_size^(2/3)`, as gtkscrolledwindow.c scrolls per detent).
/// Down moves on in reading order, towards the row's end: to the right left to right, to the
/// left right to left. (GTK's Shift+wheel down only raises the adjustment's value, which a
/// right-to-left viewport shows at the row's start, so there it moves back.)
///
/// Left to GTK, unchanged: touchpad and trackpoint scrolling (their sideways swipes already
/// scroll the row, with kinetic deceleration, and their vertical swipes scroll the lists),
/// events in surface pixels (Wayland touchpads) and Shift+wheel. A wheel click the row cannot
/// use — while it fits its width, or at the end it points to — scrolls the lists instead, so
/// the sheet still scrolls on a small screen with the pointer over the row.
@MainActor
enum SidewaysWheel {
    /// Adds the controller to `scroller`, a scrolled window that scrolls sideways only.
    static func attach(to scroller: Widget) {
        guard let controller = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL),
            let adjustment = gtk_scrolled_window_get_hadjustment(cgtk_scrolled_window(scroller))
        else { return }
        GtkSignals.connectScroll(UnsafeMutableRawPointer(controller)) { _, dy in
            guard isMouseWheel(controller) else { return false }
            let direction: SheetDirection =
                gtk_widget_get_direction(scroller) == GTK_TEXT_DIR_RTL ? .rightToLeft : .leftToRight
            let target = Self.target(
                value: gtk_adjustment_get_value(adjustment), lower: gtk_adjustment_get_lower(adjustment),
                upper: gtk_adjustment_get_upper(adjustment), page: gtk_adjustment_get_page_size(adjustment),
                clicks: dy, direction: direction)
            if let target {
                gtk_adjustment_set_value(adjustment, target)
                return true
            }
            return scrollEnclosingList(of: scroller, clicks: dy)
        }
        // Before the scrolled window's own controller, which consumes the event whether or
        // not it can use it (`scrollEnclosingList`).
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
        gtk_widget_add_controller(scroller, controller)
    }

    /// Scrolls the nearest scrolled window around `scroller` (the lists) by `clicks` wheel
    /// detents, as GTK would; false when it cannot move (or there is none).
    ///
    /// Done here because GTK 4.8's scrolled window consumes every scroll event while it may
    /// scroll either way, and the row's may scroll sideways even while it fits (its
    /// `GTK_POLICY_EXTERNAL`): the event never reached the lists, and the wheel over the row
    /// did nothing on a small screen.
    private static func scrollEnclosingList(of scroller: Widget, clicks: Double) -> Bool {
        guard let parent = gtk_widget_get_parent(scroller),
            let list = gtk_widget_get_ancestor(parent, gtk_scrolled_window_get_type()),
            let adjustment = gtk_scrolled_window_get_vadjustment(cgtk_scrolled_window(list)),
            let target = Self.target(
                value: gtk_adjustment_get_value(adjustment), lower: gtk_adjustment_get_lower(adjustment),
                upper: gtk_adjustment_get_upper(adjustment), page: gtk_adjustment_get_page_size(adjustment),
                clicks: clicks)
        else { return false }
        gtk_adjustment_set_value(adjustment, target)
        return true
    }

    /// Whether the event being handled is a mouse wheel's, without Shift.
    private static func isMouseWheel(_ controller: OpaquePointer) -> Bool {
        guard gtk_event_controller_scroll_get_unit(controller) == GDK_SCROLL_UNIT_WHEEL,
            gtk_event_controller_get_current_event_state(controller).rawValue & GDK_SHIFT_MASK.rawValue == 0,
            let event = gtk_event_controller_get_current_event(controller)
        else { return false }
        guard let device = gdk_event_get_device(event) else { return true }
        let source = gdk_device_get_source(device)
        return source != GDK_SOURCE_TOUCHPAD && source != GDK_SOURCE_TRACKPOINT
    }

    /// Where `clicks` wheel detents (positive: down, on towards the row's end) move a sideways
    /// adjustment at `value` within `lower`…`upper` showing `page`, in a row laid out in
    /// `direction` (right to left, GTK's viewport shows the row's start at the highest value);
    /// nil when they cannot move it (the row fits, or it is at the end they point to), so the
    /// event goes on to the vertical scroller.
    static func target(
        value: Double, lower: Double, upper: Double, page: Double, clicks: Double,
        direction: SheetDirection = .leftToRight
    ) -> Double? {
        let end = upper - page
        guard end - lower > 0.5, clicks != 0 else { return nil }
        let delta = (direction == .leftToRight ? clicks : -clicks) * pow(page, 2.0 / 3.0)
        if delta > 0, value >= end - 0.5 { return nil }
        if delta < 0, value <= lower + 0.5 { return nil }
        return min(max(value + delta, lower), end)
    }
}
