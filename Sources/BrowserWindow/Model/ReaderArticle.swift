// The article view: what the page's readable text is, found by a small script, and its HTML.
import DBus
import Foundation

/// The article of a page, as `extractionScript` finds it: a title and its paragraphs.
///
/// The script is a readability-like heuristic, small on purpose: it takes the `<article>` (or
/// `<main>`, or the body) and keeps the paragraphs and headings with enough words. A page is
/// an article when the kept text is long enough (`isArticle`); only then is Reader offered.
public struct ReaderArticle: Sendable, Equatable, Decodable {
    public let title: String
    public let paragraphs: [String]

    public init(title: String, paragraphs: [String]) {
        self.title = title
        self.paragraphs = paragraphs
    }

    /// Whether there is enough text for an article view: at least two paragraphs and 280
    /// characters.
    public var isArticle: Bool {
        paragraphs.count >= 2 && paragraphs.reduce(0) { $0 + $1.count } >= 280
    }

    /// Decodes the script's result (a JSON string); nil when it is not one.
    public init?(json: String) {
        guard let article = try? JSONDecoder().decode(ReaderArticle.self, from: Data(json.utf8)) else {
            return nil
        }
        self = article
    }

    /// Evaluated in the page; returns a JSON string `{"title":…,"paragraphs":[…]}`.
    public static let extractionScript = """
        (function () {
          var root = document.querySelector('article') || document.querySelector('main') || document.body;
          var out = [];
          if (root) {
            var nodes = root.querySelectorAll('p, h2, h3, blockquote, li');
            for (var i = 0; i < nodes.length && out.length < 400; i++) {
              var text = (nodes[i].innerText || '').replace(/\\s+/g, ' ').trim();
              if (text.length >= 40 || (/^H/.test(nodes[i].tagName) && text.length > 0)) out.push(text);
            }
          }
          var heading = root && root.querySelector('h1');
          var title = (heading && heading.innerText.trim()) || document.title || '';
          return JSON.stringify({ title: title, paragraphs: out });
        })()
        """

    /// The article view as a page of its own, in the colours of `dark`.
    public func html(dark: Bool) -> String {
        let background = dark ? "#1e1e1e" : "#fbf8f1"
        let text = dark ? "#e6e6e6" : "#222"
        let body = paragraphs.map { "<p>\(Self.escape($0))</p>" }.joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(Self.escape(title))</title>
            <style>
            body { background: \(background); color: \(text); margin: 0; }
            main { max-width: 38em; margin: 2.5em auto; padding: 0 1.5em;
                   font: 19px/1.6 Georgia, "DejaVu Serif", serif; }
            h1 { font-size: 1.7em; line-height: 1.25; }
            </style></head>
            <body><main><h1>\(Self.escape(title))</h1>
            \(body)
            </main></body></html>
            """
    }

    /// Escapes text for HTML element content and double-quoted attributes: `& < > "`, leaving
    /// `'` as it is (DBus's `MarkupEscape`, shared with introspection XML). Not GtkSupport's
    /// `Widgets.escape` (Pango markup).
    static func escape(_ text: String) -> String {
        MarkupEscape.escape(text, apostrophe: false)
    }
}
