// TargetURLCheck: whether an `open` template's URL would be accepted for given items, mostly without building it.

/// What `OpenSpec.url(for:)` decides (accepted or refused), prepared once per template so that
/// `ListActivities` need not build and parse every offered `open` activity's URL on every call
/// (that was about 40 % of the broker's time for a list of 15 with a new URL each call).
///
/// Exact, not a heuristic: the expansion's placeholders are percent-encoded (only unreserved
/// bytes and `%XX` escapes), so where the template puts every placeholder after its first `?`
/// or `#` and each literal `%` starts a whole escape within its literal, the values can change
/// neither the scheme, authority and path nor the split into query and fragment, nor any check
/// `SharedURL` makes on the query and fragment: only the length. Such a template is parsed
/// once with empty values (`probe`); its verdict for any items is then the probe's verdict
/// and the length limit. `{url}` alone passes the already parsed shared URL through, so only
/// its scheme matters. Any other template is built and parsed as before.
public struct TargetURLCheck: Sendable {
    enum Rule: Sendable {
        /// `{url}` alone: accepted when the shared URL's scheme may be opened.
        case sharedURL
        /// Refused for every items (the literals already make an invalid URL).
        case refused
        /// Accepted while `fixed` bytes of literals plus the placeholders' encoded lengths
        /// (`url`, `title` and `text` times each appears) stay within `SharedURL.maxLength`.
        case lengthBound(fixed: Int, url: Int, title: Int, text: Int)
        /// Built and parsed per call.
        case build(OpenSpec)
    }

    let rule: Rule

    /// The query-encoded lengths of one call's items, computed once for all its activities.
    public struct Lengths: Sendable {
        let url, title, text: Int

        /// The percent-encoded lengths of `items`' fields, measured once per call.
        public init(_ items: Items) {
            url = Self.encodedLength(items.url.string)
            title = Self.encodedLength(items.title ?? "")
            text = Self.encodedLength(items.text ?? "")
        }

        /// The length of `Template.percentEncode(s)` without building it.
        static func encodedLength(_ s: String) -> Int {
            var length = 0
            for b in s.utf8 {
                length += Template.isUnreserved(b) ? 1 : 3
            }
            return length
        }
    }

    /// Prepares the check of `spec` (parses its probe once when its shape allows).
    public init(_ spec: OpenSpec) {
        let template = spec.template
        if template.isURLOnly {
            rule = .sharedURL
            return
        }
        var fixed = 0
        var counts = (url: 0, title: 0, text: 0)
        var probe = ""
        var literalsSafe = true
        var placeholderSeen = false
        var queryOrFragmentOpen = false
        for segment in template.segments {
            switch segment {
            case .literal(let text):
                if !placeholderSeen, text.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
                    queryOrFragmentOpen = true
                }
                literalsSafe = literalsSafe && Self.escapesAreWhole(text)
                fixed += text.utf8.count
                probe += text
            case .placeholder(let placeholder):
                placeholderSeen = true
                if !queryOrFragmentOpen { literalsSafe = false }
                switch placeholder {
                case .url: counts.url += 1
                case .title: counts.title += 1
                case .text: counts.text += 1
                }
            }
        }
        guard literalsSafe else {
            rule = .build(spec)
            return
        }
        // Empty values: the literals alone, as the template puts them together.
        guard let parsed = try? SharedURL(probe), OpenSpec.allowedSchemes.contains(parsed.scheme) else {
            rule = .refused
            return
        }
        rule = .lengthBound(fixed: fixed, url: counts.url, title: counts.title, text: counts.text)
    }

    /// Whether `OpenSpec.url(for: items)` would succeed. `lengths` are computed on first need
    /// and kept for the call's other activities.
    public func accepts(_ items: Items, lengths: inout Lengths?) -> Bool {
        switch rule {
        case .sharedURL:
            return OpenSpec.allowedSchemes.contains(items.url.scheme)
        case .refused:
            return false
        case .lengthBound(let fixed, let url, let title, let text):
            if lengths == nil { lengths = Lengths(items) }
            let l = lengths!
            return fixed + url * l.url + title * l.title + text * l.text <= SharedURL.maxLength
        case .build(let spec):
            return (try? spec.url(for: items)) != nil
        }
    }

    /// Whether every `%` of `literal` is followed by two hex digits within it (the URL's own
    /// escape rule, applied to the literal alone).
    private static func escapesAreWhole(_ literal: String) -> Bool {
        (try? SharedURL.checkEscapes(Array(literal.utf8))) != nil
    }
}
