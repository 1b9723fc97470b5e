// Reader in the browser window: the article view beside the page view, in one stack.
import CGtk
import CWebKit
import Foundation
import GtkSupport

/// The stack of the page view and, once Reader is first entered, an article view that shows
/// only the extracted article. A link clicked in the article goes to `onLink` (the window loads
/// it in the page view). Main thread only.
@MainActor
final class ReaderPane {
    let stack: Widget
    private let engine: WebEngine
    private var articleView: Widget?

    /// A link clicked in the article, and whether WebKit saw the user's gesture for it.
    var onLink: (_ url: URL, _ userGesture: Bool) -> Void = { _, _ in }

    init(engine: WebEngine, pageView: Widget) {
        self.engine = engine
        stack = gtk_stack_new()
        gtk_stack_add_named(OpaquePointer(stack), pageView, "page")
    }

    var isShowingArticle: Bool {
        gtk_stack_get_visible_child_name(OpaquePointer(stack)).map { String(cString: $0) } == "reader"
    }

    /// Shows `article` (its links resolved against `baseURI`), in the desktop's colour scheme.
    func show(_ article: ReaderArticle, baseURI: String?) {
        let view = articleView ?? makeArticleView()
        webkit_web_view_load_html(cwebkit_web_view(view), article.html(dark: cwebkit_prefers_dark() != 0), baseURI)
        gtk_stack_set_visible_child_name(OpaquePointer(stack), "reader")
    }

    /// Back to the page view.
    func showPage() {
        gtk_stack_set_visible_child_name(OpaquePointer(stack), "page")
    }

    private func makeArticleView() -> Widget {
        let view = engine.makeWebView()
        GtkSignals.connectWords(UnsafeMutableRawPointer(view), "decide-policy", arguments: 2) { [weak self] words in
            self?.decide(words.pointer(at: 0), type: words.uint32(at: 1)) ?? 0
        }
        gtk_stack_add_named(OpaquePointer(stack), view, "reader")
        articleView = view
        return view
    }

    /// The article view shows only the article: a clicked link is ignored here and handed on.
    private func decide(_ decision: UnsafeMutableRawPointer?, type: UInt32) -> UInt {
        guard let decision, type != WEBKIT_POLICY_DECISION_TYPE_RESPONSE.rawValue else { return 0 }
        let navigation = cwebkit_navigation_decision(decision)
        guard let action = webkit_navigation_policy_decision_get_navigation_action(navigation),
            webkit_navigation_action_get_navigation_type(action) == WEBKIT_NAVIGATION_TYPE_LINK_CLICKED,
            let uri = webkit_uri_request_get_uri(webkit_navigation_action_get_request(action)),
            let url = URL(string: String(cString: uri))
        else { return 0 }
        webkit_policy_decision_ignore(decision.assumingMemoryBound(to: WebKitPolicyDecision.self))
        showPage()
        onLink(url, webkit_navigation_action_is_user_gesture(action) != 0)
        return 1
    }
}
