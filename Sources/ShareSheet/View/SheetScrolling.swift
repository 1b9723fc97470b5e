// The sheet's scrolling areas: the Share row (sideways, with a scrollbar when it overflows), the lists, the failure message.
import CGtk
import Dispatch
import GtkSupport

/// How the sheet scrolls instead of growing past a small screen. Each area follows the
/// keyboard focus (`GtkViewport:scroll-to-focus`), so the activity the arrow keys or Tab
/// reach is scrolled into view.
@MainActor
enum SheetScrolling {
    /// The Share row in a sideways scroller with a classic scrollbar under it, shown only
    /// when the icons do not fit.
    ///
    /// GTK's overlay scrollbars stay hidden until the pointer moves over them, so a row cut at
    /// the window's edge said nothing but the cut icon. A scrollbar is what a GNOME user reads
    /// as "there is more this way": it is GTK's own indicator (the one GNOME's "Always show
    /// scrollbars" setting shows everywhere), it tells how much more and where the view is,
    /// it can be dragged or clicked, and it adds no stop to the keyboard, where the arrows and
    /// Tab move the focus and the row follows it. Arrow buttons, as on GNOME Software's
    /// carousels, would say only "more", take clicks of their own and need syncing with the
    /// scroll position; a wrapping grid would break the row's keys (Down goes to the Actions
    /// list) and push that list far down with 20 shares.
    static func shareRow(_ row: Widget) -> Widget {
        let scroller = gtk_scrolled_window_new()!
        let window = cgtk_scrolled_window(scroller)
        gtk_scrolled_window_set_child(window, viewport(row))
        gtk_scrolled_window_set_overlay_scrolling(window, 0)
        // As tall as its content wants (both lines of a wrapped name)…
        gtk_scrolled_window_set_propagate_natural_height(window, 1)
        // …plus the scrollbar, which GTK 4.8 counts in the height only with GTK_POLICY_ALWAYS
        // (with AUTOMATIC it took its place from the row and cut the names' second line).
        // So: ALWAYS while the icons overflow, EXTERNAL (scrollable, no bar, no width forced
        // on the window) while they fit; the adjustment's `changed` follows the width and
        // the filtering.
        showsScrollbarOnOverflow(scroller)
        SidewaysWheel.attach(to: scroller)
        return scroller
    }

    private static func showsScrollbarOnOverflow(_ scroller: Widget) {
        let window = cgtk_scrolled_window(scroller)
        gtk_scrolled_window_set_policy(window, GTK_POLICY_EXTERNAL, GTK_POLICY_NEVER)
        guard let adjustment = gtk_scrolled_window_get_hadjustment(window) else { return }
        GtkSignals.connect(UnsafeMutableRawPointer(adjustment), "changed") {
            let overflows =
                gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_lower(adjustment)
                > gtk_adjustment_get_page_size(adjustment) + 0.5
            let policy = overflows ? GTK_POLICY_ALWAYS : GTK_POLICY_EXTERNAL
            var current = GTK_POLICY_NEVER
            gtk_scrolled_window_get_policy(window, &current, nil)
            guard current != policy else { return }
            // Not inside the allocation that emitted `changed`: GTK dropped the resize queued
            // there. The reference keeps the scroller alive should the sheet close meanwhile.
            g_object_ref(UnsafeMutableRawPointer(scroller))
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    gtk_scrolled_window_set_policy(window, policy, GTK_POLICY_NEVER)
                    g_object_unref(UnsafeMutableRawPointer(scroller))
                }
            }
        }
    }

    /// The Share row and the Actions list in a vertical scroller that takes the window's
    /// remaining height.
    static func lists(_ content: Widget) -> Widget { vertical(content) }

    /// The failure view (icon, heading, message, `close`) in a vertical scroller that takes
    /// the window's remaining height: a long message on a small screen scrolls instead of
    /// growing the window past the screen. While the window has room it looks as without a
    /// scroller, the space left below.
    ///
    /// Not a scroller around the message alone, as tall as the message
    /// (`propagate-natural-height`): GTK 4.8 measures that height for no particular width,
    /// i.e. for the message on one line, and showed only its first line.
    ///
    /// `close` takes the focus when the view appears; once the layout sets the scroller's
    /// range (`changed`), a focused `close` is brought into view the way a viewport does it
    /// (`gtk_adjustment_clamp_page` over its bounds).
    static func failure(_ content: Widget, close: Widget) -> Widget {
        let scroller = vertical(content)
        // The viewport's scroll-to-focus acts when the focus moves, here before the view is
        // laid out, and scrolled it back to the top after the clamp below: off for this view.
        if let port = gtk_scrolled_window_get_child(cgtk_scrolled_window(scroller)) {
            gtk_viewport_set_scroll_to_focus(OpaquePointer(port), 0)
        }
        guard let adjustment = gtk_scrolled_window_get_vadjustment(cgtk_scrolled_window(scroller)) else {
            return scroller
        }
        GtkSignals.connect(UnsafeMutableRawPointer(adjustment), "changed") {
            var bounds = graphene_rect_t()
            guard let root = gtk_widget_get_root(close), gtk_root_get_focus(root) == close,
                gtk_widget_compute_bounds(close, content, &bounds) != 0
            else { return }
            // The content's coordinates start inside its top margin: allow as much below.
            let top = Double(bounds.origin.y)
            let bottom = top + Double(bounds.size.height) + Double(gtk_widget_get_margin_bottom(content))
            // After the allocation that emitted `changed`, which would undo a value set in it.
            g_object_ref(UnsafeMutableRawPointer(adjustment))
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    gtk_adjustment_clamp_page(adjustment, top, bottom)
                    g_object_unref(UnsafeMutableRawPointer(adjustment))
                }
            }
        }
        return scroller
    }

    /// A vertical scroller taking the remaining height, whose viewport gives the content its
    /// natural height for the width (`GTK_SCROLL_NATURAL`): with GTK's default, the minimum,
    /// a list taller than the window squeezed the Share row to its minimum height and cut the
    /// second line of its names ("Share App" over a cut "App 1").
    private static func vertical(_ content: Widget) -> Widget {
        let scroller = gtk_scrolled_window_new()!
        let window = cgtk_scrolled_window(scroller)
        let port = viewport(content)
        gtk_scrollable_set_vscroll_policy(OpaquePointer(port), GTK_SCROLL_NATURAL)
        gtk_scrolled_window_set_child(window, port)
        gtk_scrolled_window_set_policy(window, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_vexpand(scroller, 1)
        return scroller
    }

    /// A viewport around `child` that scrolls to the focused widget (GTK 4.8's default, set
    /// here because the sheet's keyboard use depends on it).
    private static func viewport(_ child: Widget) -> Widget {
        let port = gtk_viewport_new(nil, nil)!
        gtk_viewport_set_child(OpaquePointer(port), child)
        gtk_viewport_set_scroll_to_focus(OpaquePointer(port), 1)
        return port
    }
}
