// PageExtractor: reads title, canonical URL, Open Graph tags, links and reader text out of HTML.

import Foundation
import Navigation

/// Reads a page's metadata from its HTML with `HTMLScanner`, building no tree.
///
/// It keeps a shallow stack of open elements (void elements and end tags without a start
/// are tolerated; a block start closes an open `<p>`, a new `<li>` an open `<li>`, as HTML
/// does) so that paragraphs know their parent and whether they sit in an `<article>` or a
/// `<main>`. Text in `<nav>`, `<header>`, `<footer>`, `<aside>`, `<form>` and `<template>`
/// never counts as reader text.
///
/// Reader text, in order of preference: the `<article>` with the most text; else `<main>`;
/// else the largest cluster of `<p>` sharing one parent, when it has at least two
/// paragraphs or `minimumClusterCharacters` of text (a lone short `<p>` is usually a footer).
public enum PageExtractor {
    /// Least text a single-paragraph cluster needs to count as the page's main text.
    public static let minimumClusterCharacters = 200

    /// Extracts metadata from the page `html` (UTF-8) loaded from `url`.
    public static func extract(html: [UInt8], url: URL) -> PageMetadata {
        var state = ExtractionState(pageURL: url)
        for token in HTMLScanner(bytes: html) { state.consume(token) }
        return state.finish()
    }

    /// Extracts metadata from the page `html` loaded from `url`.
    public static func extract(html: String, url: URL) -> PageMetadata {
        extract(html: Array(html.utf8), url: url)
    }

    /// `href` resolved against `base`, or `nil` when it is not a usable link: empty, not a
    /// URL, or `javascript:` / `data:` / `vbscript:`.
    public static func resolve(_ href: String, against base: URL) -> URL? {
        // HTML strips surrounding whitespace and drops tabs and newlines inside a URL.
        let cleaned = href.trimmingCharacters(in: .whitespacesAndNewlines).filter {
            $0 != "\t" && $0 != "\n" && $0 != "\r"
        }
        guard !cleaned.isEmpty else { return nil }
        let lower = cleaned.lowercased()
        for unsafe in URLRouter.unsafeSchemes where lower.hasPrefix(unsafe + ":") { return nil }
        let encoded = cleaned.replacingOccurrences(of: " ", with: "%20")
        guard let resolved = URL(string: encoded, relativeTo: base)?.absoluteURL,
            let scheme = resolved.scheme?.lowercased(), !URLRouter.unsafeSchemes.contains(scheme)
        else { return nil }
        return resolved
    }

    /// `text` with runs of whitespace (including no-break spaces) made one space, and trimmed.
    public static func collapsingWhitespace(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(character)
            }
        }
        return result
    }
}

/// The mutable state of one extraction.
private struct ExtractionState {
    struct OpenElement {
        var name: String
        var id: Int
    }
    struct OpenBlock {
        var elementID: Int
        var name: String
        var text = ""
        var parentID: Int
        var articleID: Int?
        var inMain: Bool
        var boilerplate: Bool
    }
    struct Block {
        var name: String
        var text: String
        var parentID: Int
        var articleID: Int?
        var inMain: Bool
    }
    struct OpenLink {
        var elementID: Int
        var href: String
        var text = ""
        var fallback: String
    }

    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
        "param", "keygen",
    ]
    static let blockElements: Set<String> = [
        "p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "pre", "blockquote",
    ]
    static let closesParagraph: Set<String> = [
        "p", "div", "article", "section", "main", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl",
        "table",
        "blockquote", "pre", "header", "footer", "nav", "aside", "form", "hr", "figure", "address", "details",
    ]
    static let boilerplate: Set<String> = ["nav", "header", "footer", "aside", "form", "template"]
    static let maximumDepth = 512

    let pageURL: URL
    var baseURL: URL
    var sawBase = false
    var stack: [OpenElement] = []
    var nextID = 1  // 0 is the document
    var inTitle = false
    var titleText: String?
    var metadata = PageMetadata()
    var canonicalHref: String?
    var openBlocks: [OpenBlock] = []
    var blocks: [Block] = []
    var link: OpenLink?
    var linkURLs: Set<String> = []
    var articleText: [Int: String] = [:]
    var mainText = ""

    init(pageURL: URL) {
        self.pageURL = pageURL
        self.baseURL = pageURL
    }

    mutating func consume(_ token: HTMLToken) {
        switch token {
        case .startTag(let name, let attributes, let selfClosing): start(name, attributes, selfClosing)
        case .endTag(let name): end(name)
        case .text(let text): append(text)
        case .comment: break
        }
    }

    private mutating func start(_ name: String, _ attributes: [HTMLAttribute], _ selfClosing: Bool) {
        if Self.closesParagraph.contains(name), let index = stack.lastIndex(where: { $0.name == "p" }) {
            pop(to: index)
        }
        if name == "li", let index = stack.lastIndex(where: { $0.name == "li" }),
            !stack[index...].contains(where: { $0.name == "ul" || $0.name == "ol" })
        {
            pop(to: index)
        }
        switch name {
        case "title" where titleText == nil:
            inTitle = true
            titleText = ""
        case "base" where !sawBase:
            sawBase = true
            if let href = attributes.value(of: "href"),
                let url = PageExtractor.resolve(href, against: pageURL)
            {
                baseURL = url
            }
        case "link":
            let rels = (attributes.value(of: "rel") ?? "").lowercased().split(whereSeparator: \.isWhitespace)
            if canonicalHref == nil, rels.contains("canonical"), let href = attributes.value(of: "href") {
                canonicalHref = href
            }
        case "meta":
            readMeta(attributes)
        case "img":
            if link != nil, let alt = attributes.value(of: "alt"), !alt.isEmpty {
                link?.fallback += " " + alt
            }
        case "br":
            append(" ")
        default:
            break
        }
        guard !Self.voidElements.contains(name), !selfClosing, stack.count < Self.maximumDepth else { return }
        let id = nextID
        nextID += 1
        let parentID = stack.last?.id ?? 0
        stack.append(OpenElement(name: name, id: id))
        if name == "a" {
            finishLink()
            if let href = attributes.value(of: "href") {
                let fallback = attributes.value(of: "aria-label") ?? attributes.value(of: "title") ?? ""
                link = OpenLink(elementID: id, href: href, fallback: fallback)
            }
        }
        if name == "article" { articleText[id] = "" }
        if Self.blockElements.contains(name) {
            let articleID = stack.last(where: { $0.name == "article" })?.id
            let inMain = stack.contains { $0.name == "main" }
            let boilerplate = stack.contains { Self.boilerplate.contains($0.name) }
            openBlocks.append(
                OpenBlock(
                    elementID: id, name: name, parentID: parentID, articleID: articleID, inMain: inMain,
                    boilerplate: boilerplate))
        }
    }

    private mutating func readMeta(_ attributes: [HTMLAttribute]) {
        // Open Graph uses `property`; many pages put it in `name`.
        guard let key = (attributes.value(of: "property") ?? attributes.value(of: "name"))?.lowercased(),
            let content = attributes.value(of: "content")
        else { return }
        let value = PageExtractor.collapsingWhitespace(content)
        guard !value.isEmpty else { return }
        switch key {
        case "og:title" where metadata.openGraphTitle == nil: metadata.openGraphTitle = value
        case "og:description" where metadata.openGraphDescription == nil:
            metadata.openGraphDescription = value
        case "og:site_name" where metadata.openGraphSiteName == nil: metadata.openGraphSiteName = value
        default: break
        }
    }

    private mutating func end(_ name: String) {
        if name == "title" { inTitle = false }
        guard let index = stack.lastIndex(where: { $0.name == name }) else { return }
        pop(to: index)
    }

    /// Closes the element at `index` and everything opened after it.
    private mutating func pop(to index: Int) {
        let closing = Set(stack[index...].map(\.id))
        stack.removeSubrange(index...)
        if let open = link, closing.contains(open.elementID) { finishLink() }
        while let last = openBlocks.last, closing.contains(last.elementID) {
            openBlocks.removeLast()
            finishBlock(last)
        }
    }

    private mutating func append(_ text: String) {
        if inTitle {
            titleText? += text
            return
        }
        if link != nil { link?.text += text }
        if stack.contains(where: { Self.boilerplate.contains($0.name) || $0.name == "head" }) { return }
        if !openBlocks.isEmpty { openBlocks[openBlocks.count - 1].text += text }
        if let article = stack.last(where: { $0.name == "article" }) {
            articleText[article.id, default: ""] += text
        }
        if stack.contains(where: { $0.name == "main" }) { mainText += text }
    }

    private mutating func finishBlock(_ open: OpenBlock) {
        guard !open.boilerplate else { return }
        let text = PageExtractor.collapsingWhitespace(open.text)
        guard !text.isEmpty else { return }
        blocks.append(
            Block(
                name: open.name, text: text, parentID: open.parentID, articleID: open.articleID,
                inMain: open.inMain))
    }

    private mutating func finishLink() {
        guard let open = link else { return }
        link = nil
        guard let url = PageExtractor.resolve(open.href, against: baseURL) else { return }
        guard linkURLs.insert(url.absoluteString).inserted else { return }
        var text = PageExtractor.collapsingWhitespace(open.text)
        if text.isEmpty { text = PageExtractor.collapsingWhitespace(open.fallback) }
        metadata.links.append(PageLink(url: url, text: text))
    }

    mutating func finish() -> PageMetadata {
        if !stack.isEmpty { pop(to: 0) }
        finishLink()
        if let title = titleText.map(PageExtractor.collapsingWhitespace), !title.isEmpty {
            metadata.title = title
        }
        if let href = canonicalHref, let url = PageExtractor.resolve(href, against: baseURL),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        {
            metadata.canonicalURL = url
        }
        metadata.reader = readerContent()
        return metadata
    }

    private func readerContent() -> ReaderContent? {
        var paragraphs: [String] = []
        var textLength: [Int: Int] = [:]
        for block in blocks { if let id = block.articleID { textLength[id, default: 0] += block.text.count } }
        let articles = articleText.keys.sorted()
        if let best = articles.max(by: { articleScore($0, textLength) < articleScore($1, textLength) }),
            articleScore(best, textLength) > 0
        {
            paragraphs = blocks.filter { $0.articleID == best }.map(\.text)
            if paragraphs.isEmpty {
                paragraphs = [PageExtractor.collapsingWhitespace(articleText[best] ?? "")]
            }
        } else if blocks.contains(where: \.inMain) {
            paragraphs = blocks.filter(\.inMain).map(\.text)
        } else if !PageExtractor.collapsingWhitespace(mainText).isEmpty {
            paragraphs = [PageExtractor.collapsingWhitespace(mainText)]
        } else {
            var clusters: [Int: [String]] = [:]
            var order: [Int] = []
            for block in blocks where block.name == "p" {
                if clusters[block.parentID] == nil { order.append(block.parentID) }
                clusters[block.parentID, default: []].append(block.text)
            }
            let size = { (id: Int) in clusters[id, default: []].reduce(0) { $0 + $1.count } }
            // `max(by:)` keeps the first of equals: ties go to the earlier cluster.
            guard let best = order.max(by: { size($0) < size($1) }) else { return nil }
            let chosen = clusters[best, default: []]
            guard chosen.count >= 2 || size(best) >= PageExtractor.minimumClusterCharacters else {
                return nil
            }
            paragraphs = chosen
        }
        let title =
            metadata.openGraphTitle ?? titleText.map(PageExtractor.collapsingWhitespace).flatMap {
                $0.isEmpty ? nil : $0
            }
            ?? blocks.first(where: { $0.name == "h1" })?.text
        if let first = paragraphs.first, first == title { paragraphs.removeFirst() }
        guard !paragraphs.isEmpty else { return nil }
        return ReaderContent(title: title, paragraphs: paragraphs)
    }

    private func articleScore(_ id: Int, _ lengths: [Int: Int]) -> Int {
        max(lengths[id] ?? 0, PageExtractor.collapsingWhitespace(articleText[id] ?? "").count)
    }
}
