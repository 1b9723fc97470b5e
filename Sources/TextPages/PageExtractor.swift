// PageExtractor: reads title, canonical URL, Open Graph tags, links and reader text out of HTML.

import ActivityKit
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

    /// Extracts metadata from the page `html` (UTF-8) loaded from `url`, with no limit on
    /// the work (for pages the caller trusts or has already bounded).
    public static func extract(html: [UInt8], url: URL) -> PageMetadata {
        // An unlimited budget never throws.
        (try? read(html: html, url: url, budget: .unlimited).metadata) ?? PageMetadata()
    }

    /// Reads the page `html` (UTF-8) loaded from `url` within `budget`.
    ///
    /// Every step is linear in the input: tags, attributes, open elements, text and the
    /// reader's scoring each cost a bounded amount per byte, and `Extraction.work` counts
    /// those steps (scanner bytes, tokens, elements closed, characters kept and re-read), so a
    /// caller (and the tests) can see that no page costs more than a constant per byte.
    ///
    /// - Throws: `PageLoadError.tooComplex` past the budget's work or processor time,
    ///   `.cancelled` when the calling task is cancelled (checked every few hundred tokens).
    public static func read(html: [UInt8], url: URL, budget: ExtractionBudget) throws(PageLoadError)
        -> Extraction
    {
        let meter = budget.meter(forByteCount: html.count)
        var state = ExtractionState(pageURL: url)
        var scanner = HTMLScanner(bytes: html)
        var tokens = 0
        while let token = scanner.next() {
            state.consume(token)
            tokens += 1
            if tokens & 255 == 0 { try meter.check(work: scanner.work + state.work) }
        }
        let metadata = state.finish()
        try meter.check(work: scanner.work + state.work)
        return Extraction(metadata: metadata, work: scanner.work + state.work)
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

    /// The longest title kept, in UTF-8 bytes: what the broker accepts (`Items.maxTitleLength`,
    /// API.md §2). A longer `<title>` made every share of the page fail.
    public static let maximumTitleBytes = Items.maxTitleLength

    /// `title` clipped to `maximumTitleBytes` at a Character boundary, ending with "…" when
    /// something was cut (the ellipsis counts towards the limit).
    public static func clippedTitle(_ title: String) -> String {
        guard title.utf8.count > maximumTitleBytes else { return title }
        let ellipsis = "…"
        let room = maximumTitleBytes - ellipsis.utf8.count
        var result = ""
        var used = 0
        for character in title {
            let size = character.utf8.count
            if used + size > room { break }
            result.append(character)
            used += size
        }
        return result + ellipsis
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
    /// A block element still open: the block it becomes, its text not yet collapsed.
    struct OpenBlock {
        var elementID: Int
        /// Inside `<nav>`, `<header>`, … or `<head>`: dropped when it closes.
        var boilerplate: Bool
        var block: Block
    }
    /// A block with text, kept for the reader.
    struct Block {
        var name: String
        var text = ""
        var parentID: Int
        /// The parent, or for a list item the list's parent: where the reader's paragraph
        /// cluster looks for it.
        var containerID: Int
        var articleID: Int?
        var inMain: Bool
        /// "• " for an item of `<ul>`, "3. " for the third of an `<ol>`.
        var listMarker: String?
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
    /// Steps taken so far (see `PageExtractor.read`).
    var work = 0
    /// For each element name, the indices in `stack` where one is open, ascending: finding
    /// the innermost open `<p>`, `<article>` or `<li>` costs one lookup, not a walk of the
    /// stack (which made many tags under deep nesting quadratic).
    var openIndices: [String: [Int]] = [:]
    /// How many boilerplate elements (and `<head>`s) are open: text in them is not reader text.
    var boilerplateOpen = 0
    /// Items counted so far in each open `<ol>`, by element id.
    var orderedItems: [Int: Int] = [:]
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
        work += 1
        switch token {
        case .startTag(let name, let attributes, let selfClosing): start(name, attributes, selfClosing)
        case .endTag(let name): end(name)
        case .text(let text): append(text)
        case .comment: break
        }
    }

    private mutating func start(_ name: String, _ attributes: [HTMLAttribute], _ selfClosing: Bool) {
        if Self.closesParagraph.contains(name), let index = openIndices["p"]?.last {
            pop(to: index)
        }
        if name == "li", let index = openIndices["li"]?.last, innermostList < index {
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
        openIndices[name, default: []].append(stack.count)
        if Self.boilerplate.contains(name) || name == "head" { boilerplateOpen += 1 }
        if name == "ol" { orderedItems[id] = 0 }
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
            var containerID = parentID
            var marker: String?
            let list = innermostList
            if name == "li", list >= 0 {
                containerID = list > 0 ? stack[list - 1].id : 0
                let listID = stack[list].id
                if let count = orderedItems[listID] {
                    orderedItems[listID] = count + 1
                    marker = "\(count + 1). "
                } else {
                    marker = "• "
                }
            }
            openBlocks.append(
                OpenBlock(
                    elementID: id, boilerplate: boilerplateOpen > 0,
                    block: Block(
                        name: name, parentID: parentID, containerID: containerID,
                        articleID: innermostArticleID,
                        inMain: openIndices["main"]?.isEmpty == false, listMarker: marker)))
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
        case "og:title" where metadata.openGraphTitle == nil:
            metadata.openGraphTitle = PageExtractor.clippedTitle(value)
        case "og:description" where metadata.openGraphDescription == nil:
            metadata.openGraphDescription = value
        case "og:site_name" where metadata.openGraphSiteName == nil: metadata.openGraphSiteName = value
        default: break
        }
    }

    /// The stack index of the innermost open `<ul>` or `<ol>`, or -1.
    private var innermostList: Int {
        max(openIndices["ul"]?.last ?? -1, openIndices["ol"]?.last ?? -1)
    }

    /// The id of the innermost open `<article>`.
    private var innermostArticleID: Int? {
        openIndices["article"]?.last.map { stack[$0].id }
    }

    private mutating func end(_ name: String) {
        if name == "title" { inTitle = false }
        guard let index = openIndices[name]?.last else { return }
        pop(to: index)
    }

    /// Closes the element at `index` and everything opened after it. Ids grow up the stack,
    /// so what closes is exactly what has an id from `stack[index]`'s on.
    private mutating func pop(to index: Int) {
        let firstClosing = stack[index].id
        while stack.count > index {
            let element = stack.removeLast()
            work += 1
            openIndices[element.name]?.removeLast()
            if Self.boilerplate.contains(element.name) || element.name == "head" { boilerplateOpen -= 1 }
            if element.name == "ol" { orderedItems[element.id] = nil }
        }
        if let open = link, open.elementID >= firstClosing { finishLink() }
        while let last = openBlocks.last, last.elementID >= firstClosing {
            openBlocks.removeLast()
            finishBlock(last)
        }
    }

    private mutating func append(_ text: String) {
        let size = text.utf8.count
        work += size
        if inTitle {
            titleText? += text
            return
        }
        if link != nil {
            link?.text += text
            work += size
        }
        if boilerplateOpen > 0 { return }
        if !openBlocks.isEmpty {
            openBlocks[openBlocks.count - 1].block.text += text
            work += size
        }
        if let article = innermostArticleID {
            articleText[article, default: ""] += text
            work += size
        }
        if openIndices["main"]?.isEmpty == false {
            mainText += text
            work += size
        }
    }

    private mutating func finishBlock(_ open: OpenBlock) {
        guard !open.boilerplate else { return }
        var block = open.block
        work += block.text.utf8.count
        block.text = PageExtractor.collapsingWhitespace(block.text)
        guard !block.text.isEmpty else { return }
        blocks.append(block)
    }

    private mutating func finishLink() {
        guard let open = link else { return }
        link = nil
        work += open.href.utf8.count + open.text.utf8.count + open.fallback.utf8.count
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
            metadata.title = PageExtractor.clippedTitle(title)
        }
        if let href = canonicalHref, let url = PageExtractor.resolve(href, against: baseURL),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        {
            metadata.canonicalURL = url
        }
        metadata.reader = readerContent()
        return metadata
    }

    /// The reader's text. Every article's score is computed once and the blocks are walked a
    /// fixed number of times: linear in the page (choosing the best of many articles used to
    /// re-read the largest one for every comparison).
    private mutating func readerContent() -> ReaderContent? {
        var chosen: [Block] = []
        var textLength: [Int: Int] = [:]
        for block in blocks { if let id = block.articleID { textLength[id, default: 0] += block.text.count } }
        var best: (id: Int, score: Int)?
        for id in articleText.keys.sorted() {
            let text = articleText[id] ?? ""
            work += text.utf8.count + 1
            let score = max(textLength[id] ?? 0, PageExtractor.collapsingWhitespace(text).count)
            if score > (best?.score ?? 0) { best = (id, score) }
        }
        work += blocks.count * 4
        if let best {
            chosen = blocks.filter { $0.articleID == best.id }
            if chosen.isEmpty {
                let text = PageExtractor.collapsingWhitespace(articleText[best.id] ?? "")
                chosen = [
                    Block(
                        name: "p", text: text, parentID: 0, containerID: 0, articleID: best.id, inMain: false)
                ]
            }
        } else if blocks.contains(where: \.inMain) {
            chosen = blocks.filter(\.inMain)
        } else if !PageExtractor.collapsingWhitespace(mainText).isEmpty {
            work += mainText.utf8.count
            let text = PageExtractor.collapsingWhitespace(mainText)
            chosen = [Block(name: "p", text: text, parentID: 0, containerID: 0, inMain: true)]
        } else {
            // Paragraphs grouped by their parent; headings and lists in the same container
            // come along with the winning group.
            var size: [Int: Int] = [:]
            var paragraphs: [Int: Int] = [:]
            var order: [Int] = []
            for block in blocks where block.name == "p" {
                if size[block.parentID] == nil { order.append(block.parentID) }
                size[block.parentID, default: 0] += block.text.count
                paragraphs[block.parentID, default: 0] += 1
            }
            // `max(by:)` keeps the first of equals: ties go to the earlier cluster.
            guard let cluster = order.max(by: { size[$0, default: 0] < size[$1, default: 0] }) else {
                return nil
            }
            guard
                paragraphs[cluster, default: 0] >= 2
                    || size[cluster, default: 0] >= PageExtractor.minimumClusterCharacters
            else { return nil }
            chosen = blocks.filter { $0.containerID == cluster }
        }
        let title =
            metadata.openGraphTitle ?? metadata.title
            ?? blocks.first(where: { $0.name == "h1" })?.text
        if let first = chosen.first, first.text == title { chosen.removeFirst() }
        guard !chosen.isEmpty else { return nil }
        return ReaderContent(title: title, paragraphs: chosen.map(Self.paragraph))
    }

    /// A block as a reader paragraph: headings marked with `#` by level, list items with
    /// their bullet or number, so the reader keeps the page's structure.
    private static func paragraph(_ block: Block) -> String {
        if let marker = block.listMarker { return marker + block.text }
        if block.name.count == 2, block.name.hasPrefix("h"), let level = Int(block.name.dropFirst()) {
            return String(repeating: "#", count: level) + " " + block.text
        }
        return block.text
    }
}
