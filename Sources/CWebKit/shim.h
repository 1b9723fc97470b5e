// WebKitGTK 6 for Swift: the headers over CGtk's (so GTK's types are CGtk's), and static inline
// wrappers for the casts and variadics Swift cannot call.
#ifndef CWEBKIT_SHIM_H
#define CWEBKIT_SHIM_H

// Through CGtk's own header, so that clang maps it to the CGtk module and GtkWidget & co. are
// one type for Swift, not one per module.
#include "../CGtk/shim.h"
#include <webkit/webkit.h>

static inline WebKitWebView *cwebkit_web_view(GtkWidget *widget) { return WEBKIT_WEB_VIEW(widget); }

/// A web view on `session` whose pages use `manager` (webkit_web_view_new has no such
/// arguments, and g_object_new is variadic).
static inline GtkWidget *cwebkit_web_view_new(WebKitNetworkSession *session, WebKitUserContentManager *manager) {
    return GTK_WIDGET(g_object_new(WEBKIT_TYPE_WEB_VIEW, "network-session", session, "user-content-manager",
                                   manager, NULL));
}

static inline WebKitNavigationPolicyDecision *cwebkit_navigation_decision(void *decision) {
    return WEBKIT_NAVIGATION_POLICY_DECISION(decision);
}

/// Whether GTK is set to prefer the dark variant of the theme (g_object_get is variadic).
static inline gboolean cwebkit_prefers_dark(void) {
    GtkSettings *settings = gtk_settings_get_default();
    gboolean dark = FALSE;
    if (settings != NULL) g_object_get(settings, "gtk-application-prefer-dark-theme", &dark, NULL);
    return dark;
}

#endif
