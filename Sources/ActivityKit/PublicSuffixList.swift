// PublicSuffixList: the rules of publicsuffix.org, read from the system's copy, and the registrable domain they give a host.
#if canImport(Glibc)
    import Glibc
#endif

/// The Public Suffix List (publicsuffix.org): which names are suffixes under which anyone may
/// register a name (`com`, `co.uk`, and private ones such as `github.io`), so that
/// `alice.github.io` and `bob.github.io` are two sites, not one `github.io`.
///
/// Both of the list's sections count, ICANN's and the private one, as browsers count them.
/// Rules in Unicode are kept in their ASCII (`xn--`) form, the form `SharedURL` gives hosts.
/// The algorithm is the list's (publicsuffix.org/list): an exception rule (`!www.ck`)
/// prevails, else the matching rule with the most labels, else the implicit `*`: the last
/// label. One reading is libpsl's rather than the list's text: a wildcard rule (`*.ck`) makes
/// its own name (`ck`) a public suffix too, as libpsl — and with it libsoup and WebKitGTK —
/// has it.
///
/// `system` is an immutable table read once on first use (about 25 ms), like
/// `UnicodeNormalization`'s ICU: the broker reads it only for click measurement, so that its
/// memory is not spent otherwise.
public struct PublicSuffixList: Sendable {
    /// Where Debian's `publicsuffix` package (and most distributions) keep the list.
    public static let systemPath = "/usr/share/publicsuffix/public_suffix_list.dat"
    /// The most the list file may hold (it is about 250 KB).
    static let maximumFileSize = 4 << 20

    /// The system's list, read once on first use; nil when there is none or it does not look
    /// whole (the callers then fall back to `RegistrableDomain`'s approximation).
    public static let system: PublicSuffixList? = readFile(systemPath).flatMap {
        whole(PublicSuffixList(text: $0), text: $0)
    }

    /// The fewest rules a list read from a file may have: the real one has about 9,700; an
    /// empty or cut file would make every host its own last label's site, worse than the
    /// approximation.
    static let minimumRules = 1_000

    /// `list` when the file it came from looks whole: its ICANN section's marker and at least
    /// `minimumRules` rules.
    static func whole(_ list: PublicSuffixList, text: String) -> PublicSuffixList? {
        list.count >= minimumRules && text.contains("===BEGIN ICANN DOMAINS===") ? list : nil
    }

    /// Plain rules (`co.uk`).
    private var rules: Set<String> = []
    /// Wildcard rules without their `*.` (`ck` for `*.ck`).
    private var wildcards: Set<String> = []
    /// Exception rules without their `!` (`www.ck` for `!www.ck`).
    private var exceptions: Set<String> = []
    /// The most labels a rule can match (a wildcard's one more than its name): no suffix of a
    /// host longer than that can match, so a lookup looks at no more, whatever the host's length.
    private var longestMatch = 1

    /// How many rules were read (all three kinds).
    public var count: Int { rules.count + wildcards.count + exceptions.count }

    /// The rules of a list in the publicsuffix.org format: one rule per line, the rule being
    /// the line's first word; `//` comments and blank lines skipped. A rule whose labels cannot
    /// be put in ASCII form is skipped.
    public init(text: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            guard let word = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first,
                !word.hasPrefix("//")
            else { continue }
            if word.hasPrefix("!") {
                if let rule = Self.ascii(word.dropFirst()) { exceptions.insert(rule) }
            } else if word.hasPrefix("*.") {
                if let rule = Self.ascii(word.dropFirst(2)) {
                    wildcards.insert(rule)
                    longestMatch = max(longestMatch, Self.labelCount(rule) + 1)
                }
            } else if let rule = Self.ascii(word) {
                rules.insert(rule)
                longestMatch = max(longestMatch, Self.labelCount(rule))
            }
        }
    }

    /// The registrable domain of `host` (lower-case, no trailing dot, labels in ASCII form): its
    /// public suffix and one label more; the host itself when it is a public suffix or has a
    /// single label.
    public func registrableDomain(of host: String) -> String {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let kept = min(publicSuffixLabels(labels) + 1, labels.count)
        return labels.suffix(kept).joined(separator: ".")
    }

    /// Whether `host` is itself a public suffix by one of the list's rules (`github.io`,
    /// `co.uk`; not `localhost`, which only the implicit rule covers).
    public func isListedSuffix(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count <= longestMatch else { return false }
        let joined = labels.joined(separator: ".")
        if exceptions.contains(joined) { return false }
        return rules.contains(joined) || wildcards.contains(joined)
            || (labels.count > 1 && wildcards.contains(labels.dropFirst().joined(separator: ".")))
    }

    /// How many of the last `labels` make the public suffix.
    func publicSuffixLabels(_ labels: [Substring]) -> Int {
        let count = labels.count
        // Only the suffixes a rule could match, from the longest down (`a.b.c`, `b.c`, `c`).
        let first = max(0, count - longestMatch)
        let suffixes = (0..<count).map { $0 < first ? "" : labels[$0...].joined(separator: ".") }
        // An exception prevails whatever else matches: its rule less its first label.
        if let index = suffixes.indices.first(where: { $0 >= first && exceptions.contains(suffixes[$0]) }) {
            return count - index - 1
        }
        for index in first..<count {
            // A wildcard's own name is a public suffix too (`*.compute.amazonaws.com` makes
            // `compute.amazonaws.com` one), as libpsl — and with it libsoup and WebKitGTK — reads it.
            if rules.contains(suffixes[index]) || wildcards.contains(suffixes[index]) { return count - index }
            if index + 1 < count, wildcards.contains(suffixes[index + 1]) { return count - index }
        }
        return 1
    }

    private static func labelCount(_ rule: String) -> Int {
        rule.utf8.filter { $0 == UInt8(ascii: ".") }.count + 1
    }

    /// A rule's labels in ASCII form, lower-cased; nil when one cannot be encoded.
    static func ascii(_ rule: Substring) -> String? {
        guard !rule.isEmpty else { return nil }
        if rule.utf8.allSatisfy({ $0 < 0x80 }) { return rule.lowercased() }
        var labels: [String] = []
        for label in rule.lowercased().split(separator: ".", omittingEmptySubsequences: false) {
            if label.utf8.allSatisfy({ $0 < 0x80 }) {
                labels.append(String(label))
            } else {
                guard let encoded = Punycode.encode(String(label)) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }

    /// The UTF-8 text of the file at `path`, up to `maximumFileSize`; nil when it cannot be read.
    private static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= maximumFileSize
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            // A failed read is no list: part of one would lose its private section, at the end.
            guard count >= 0 else { return nil }
            if count == 0 { break }
            filled += count
        }
        return String(validating: bytes[..<filled], as: UTF8.self)
    }
}
