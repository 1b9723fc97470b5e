// GTK 4 for Swift: the headers, and static inline wrappers for what Swift cannot call (macros, variadics).
#ifndef CGTK_SHIM_H
#define CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif
#ifdef GDK_WINDOWING_WAYLAND
#include <gdk/wayland/gdkwayland.h>
#endif

// libdispatch's main-queue hooks (exported by the toolchain's libdispatch, declared in its
// private headers): GLib owns the main thread, so it must drain DispatchQueue.main itself.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

// gio-unix's GDesktopAppInfo (its header lives outside gtk4's include path): the calling app's
// name and icon from its desktop entry.
typedef struct _GDesktopAppInfo GDesktopAppInfo;
extern GDesktopAppInfo *g_desktop_app_info_new(const char *desktop_id);

// Checked casts (the GTK_* macros do not import).
static inline GtkWindow *cgtk_window(GtkWidget *widget) { return GTK_WINDOW(widget); }
static inline GtkBox *cgtk_box(GtkWidget *widget) { return GTK_BOX(widget); }
static inline GtkLabel *cgtk_label(GtkWidget *widget) { return GTK_LABEL(widget); }
static inline GtkButton *cgtk_button(GtkWidget *widget) { return GTK_BUTTON(widget); }
static inline GtkImage *cgtk_image(GtkWidget *widget) { return GTK_IMAGE(widget); }
static inline GtkEditable *cgtk_editable(GtkWidget *widget) { return GTK_EDITABLE(widget); }
static inline GtkScrolledWindow *cgtk_scrolled_window(GtkWidget *widget) { return GTK_SCROLLED_WINDOW(widget); }
static inline GtkSpinner *cgtk_spinner(GtkWidget *widget) { return GTK_SPINNER(widget); }
static inline GtkHeaderBar *cgtk_header_bar(GtkWidget *widget) { return GTK_HEADER_BAR(widget); }
static inline GtkAccessible *cgtk_accessible(GtkWidget *widget) { return GTK_ACCESSIBLE(widget); }
static inline GAppInfo *cgtk_app_info(GDesktopAppInfo *info) { return G_APP_INFO(info); }
static inline GAppLaunchContext *cgtk_launch_context(GdkAppLaunchContext *context) {
    return G_APP_LAUNCH_CONTEXT(context);
}

/// Sets the accessible name a screen reader speaks (GTK_ACCESSIBLE_PROPERTY_LABEL).
static inline void cgtk_set_accessible_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/// Sets the accessible description (GTK_ACCESSIBLE_PROPERTY_DESCRIPTION).
static inline void cgtk_set_accessible_description(GtkWidget *widget, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

/// Hides a decorative widget from assistive technologies (GTK_ACCESSIBLE_STATE_HIDDEN).
static inline void cgtk_set_accessible_hidden(GtkWidget *widget) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
}

/// Makes `widget` transient for the X11 window `parent` (a foreign window: GTK 4 has no
/// foreign surfaces, so the hint is set on our own X window, as xdg-desktop-portal-gnome does).
/// Call once the window is mapped: GTK rewrites the hint (to none) while presenting it. Returns FALSE when the window is not on X11.
static inline gboolean cgtk_set_x11_transient_for(GtkWidget *widget, unsigned long parent) {
#ifdef GDK_WINDOWING_X11
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(widget));
    if (surface == NULL || !GDK_IS_X11_SURFACE(surface)) return FALSE;
    GdkDisplay *display = gdk_surface_get_display(surface);
    Display *xdisplay = gdk_x11_display_get_xdisplay(display);
    XSetTransientForHint(xdisplay, gdk_x11_surface_get_xid(surface), (Window)parent);
    XFlush(xdisplay);
    return TRUE;
#else
    (void)widget;
    (void)parent;
    return FALSE;
#endif
}

/// Makes `widget` transient for a window another client exported with xdg-foreign-v2
/// (`wayland:<handle>` in the portal convention), as xdg-desktop-portal-gtk does. Call once
/// the window is realized. Returns FALSE when the window is not on Wayland or the compositor
/// refused the handle.
static inline gboolean cgtk_set_wayland_transient_for(GtkWidget *widget, const char *handle) {
#ifdef GDK_WINDOWING_WAYLAND
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(widget));
    if (surface == NULL || !GDK_IS_WAYLAND_TOPLEVEL(surface)) return FALSE;
    return gdk_wayland_toplevel_set_transient_for_exported(GDK_TOPLEVEL(surface), (char *)handle);
#else
    (void)widget;
    (void)handle;
    return FALSE;
#endif
}

/// The X11 window id of a realized window (0 when not on X11).
static inline unsigned long cgtk_x11_xid(GtkWidget *widget) {
#ifdef GDK_WINDOWING_X11
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(widget));
    if (surface == NULL || !GDK_IS_X11_SURFACE(surface)) return 0;
    return (unsigned long)gdk_x11_surface_get_xid(surface);
#else
    (void)widget;
    return 0;
#endif
}

#endif
