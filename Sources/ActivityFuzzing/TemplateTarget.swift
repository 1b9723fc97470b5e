// The template fuzz target: Template parsing and expansion, as exec arguments and as an open URL.
import ActivityKit

extension FuzzTarget {
    /// Separates the input's fields: templates, URL, title, text (0xFF never occurs in UTF-8).
    static let fieldSeparator: UInt8 = 0xFF
    /// Separates the exec argument templates within the first field (0xFE never occurs in UTF-8).
    static let argumentSeparator: UInt8 = 0xFE

    /// The longest expansion of `template` for items within the limits of API.md §2: its
    /// literal text plus, per placeholder, that item's limit (`Items`, `SharedURL`) — three
    /// times as much when percent-encoded, where one byte becomes `%XX`.
    public static func expansionLimit(of template: Template, percentEncoded: Bool) -> Int {
        let factor = percentEncoded ? 3 : 1
        return template.segments.reduce(0) { total, segment in
            switch segment {
            case .literal(let text): return total + text.utf8.count
            case .placeholder(.url): return total + factor * SharedURL.maxLength
            case .placeholder(.title): return total + factor * Items.maxTitleLength
            case .placeholder(.text): return total + factor * Items.maxTextLength
            }
        }
    }

    /// The input is `argv0 0xFE argv1 … 0xFF url 0xFF title 0xFF text`: the templates of an
    /// `exec` (the first also tried as an `open` template) and the items they are expanded for.
    ///
    /// Properties: an error names the template without control characters; the segments
    /// written back as a template parse the same; no expansion exceeds `expansionLimit`; an
    /// `exec` keeps one argument per template, each the raw expansion; an `open` URL that is
    /// built is a valid http, https or mailto URL within `SharedURL.maxLength`.
    public static let template = FuzzTarget(
        name: "template",
        dictionary: [
            "{url}", "{title}", "{text}", "{", "}", "{{", "}}", "{{url}}", "{url", "url}", "{URL}", "{ url}",
            "https:", "https://example.org/?u=", "mailto:", "javascript:", "&t=", "%", "%7B", "\u{0}",
            "\u{1B}", "\u{202E}", "é", "e\u{301}", "\r\n",
        ]
    ) { bytes throws(FuzzFailure) in
        let fields = bytes.split(separator: fieldSeparator, maxSplits: 3, omittingEmptySubsequences: false)
        let sources = fields[0].split(separator: argumentSeparator, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        func field(_ index: Int) -> String? {
            index < fields.count ? String(decoding: fields[index], as: UTF8.self) : nil
        }
        let items = makeItems(url: field(1), title: field(2), text: field(3))
        var templates: [Template] = []
        for source in sources {
            do throws(ActivityError) {
                templates.append(try Template(source))
            } catch {
                try FuzzFailure.require(
                    TextChecks.startsWith(error.message, "template '") && !TextChecks.hasControl(error.message),
                    "a template error names the template without control characters",
                    TextChecks.shown(error.message))
                return false
            }
        }
        for template in templates { try checkExpansion(template, items) }
        if let exec = try? ExecSpec(argv: templates) {
            let arguments = exec.arguments(for: items)
            try FuzzFailure.require(
                arguments.count == templates.count, "exec keeps one argument per template",
                "\(templates.count) templates gave \(arguments.count) arguments")
            for (template, argument) in zip(templates, arguments) {
                try FuzzFailure.require(
                    argument == template.expandRaw(items), "each exec argument is its template's raw expansion",
                    TextChecks.shown(argument))
            }
        }
        if let first = templates.first, let open = try? OpenSpec(template: first),
            let url = try? open.url(for: items)
        {
            do {
                let parsed = try SharedURL(url)
                try FuzzFailure.require(
                    OpenSpec.allowedSchemes.contains(parsed.scheme), "an open URL is http, https or mailto",
                    parsed.scheme)
            } catch {
                throw FuzzFailure("an open URL is a valid URL", "\(error)")
            }
        }
        return true
    }

    /// Items from the fields; a field the limits refuse is left out (the URL replaced by a
    /// fixed one), so the templates are still expanded.
    private static func makeItems(url: String?, title: String?, text: String?) -> Items {
        let fallback = "https://example.org/page?x=1"
        for (u, t, x) in [(url, title, text), (url, nil, nil), (fallback, title, text), (fallback, nil, nil)] {
            if let items = try? Items(url: u ?? fallback, title: t, text: x) { return items }
        }
        preconditionFailure("the fallback URL is valid")
    }

    /// Written back, the template parses the same; its expansions stay within the limit.
    private static func checkExpansion(_ template: Template, _ items: Items) throws(FuzzFailure) {
        var written = ""
        for segment in template.segments {
            switch segment {
            case .literal(let text): written += DesktopExec.escapeBraces(text)
            case .placeholder(let name): written += "{\(name.rawValue)}"
            }
        }
        let again: Template
        do { again = try Template(written) } catch {
            throw FuzzFailure("a template written back parses", "\(error)")
        }
        try FuzzFailure.require(
            again.segments == template.segments, "a template written back parses the same", TextChecks.shown(written))
        let raw = template.expandRaw(items).utf8.count
        let rawLimit = expansionLimit(of: template, percentEncoded: false)
        try FuzzFailure.require(raw <= rawLimit, "a raw expansion stays within its limit", "\(raw) > \(rawLimit)")
        let encoded = template.expandQueryEncoded(items).utf8.count
        let encodedLimit = expansionLimit(of: template, percentEncoded: true)
        try FuzzFailure.require(
            encoded <= encodedLimit, "an encoded expansion stays within its limit", "\(encoded) > \(encodedLimit)")
    }
}
