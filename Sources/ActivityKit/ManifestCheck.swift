// ManifestCheck: the broker's manifest validation with positions, for authors (`share check`).

/// One finding in a manifest file, located by line and column.
public struct ManifestDiagnostic: Equatable, Sendable {
    public enum Severity: String, Sendable {
        case error
        case warning
    }

    public let severity: Severity
    /// 1-based line of the offending value (or key).
    public let line: Int
    /// 1-based column, counted in Unicode scalars (a tab is one column).
    public let column: Int
    /// The field path, e.g. `perform.exec[0]`; empty for the document as a whole.
    public let field: String
    public let message: String

    public init(severity: Severity, line: Int, column: Int, field: String, message: String) {
        self.severity = severity
        self.line = line
        self.column = column
        self.field = field
        self.message = message
    }

    /// `FILE:LINE:COLUMN: error: FIELD: MESSAGE`, the form compilers use, so editors jump to it.
    public func formatted(file: String) -> String {
        let subject = field.isEmpty ? "" : "\(field): "
        return "\(file):\(line):\(column): \(severity.rawValue): \(subject)\(message)"
    }
}

/// Checks a manifest exactly as the broker reads it (`Manifest.decode`), and then says where.
///
/// Decoding itself stays position-free (the broker reads every file on each change, and
/// `JSONValue.parse` is its fast path); only when there is something to report does the check
/// walk the bytes again (`JSONValue.offsets(of:in:)`) to turn a field path into a line and column.
public enum ManifestCheck {
    /// The result for one file: the activity when it is valid, and what was found.
    public struct Result: Sendable {
        public let activity: Activity?
        /// The error (at most one: decoding stops at the first) and the warnings, in file order.
        public let diagnostics: [ManifestDiagnostic]
        /// Whether the file is empty or white space only: it masks a lower file of the same name.
        public let isMask: Bool

        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Checks `data`; `fileName` is the name `Manifest.decode` puts in its messages.
    /// The size comes first: the broker's reader skips a file over `Manifest.maxFileSize` unread,
    /// so one of only white space that large masks nothing.
    public static func check(_ data: [UInt8], fileName: String, origin: ActivityOrigin = .user) -> Result {
        if data.count > Manifest.maxFileSize {
            return failure(
                ManifestDiagnostic(
                    severity: .error, line: 1, column: 1, field: "", message: "the file is larger than 1 MiB")
            )
        }
        if Manifest.isMask(data) { return Result(activity: nil, diagnostics: [], isMask: true) }
        let json: JSONValue
        switch JSONValue.parseReportingError(data) {
        case .failure(let syntax):
            let (line, column) = lineAndColumn(of: syntax.offset, in: data)
            return failure(
                ManifestDiagnostic(
                    severity: .error, line: line, column: column, field: "",
                    message: "not valid JSON: \(syntax.reason)"))
        case .success(let value):
            json = value
        }
        var diagnostics = unknownKeyWarnings(json, data: data)
        do {
            let activity = try Manifest.decode(data, fileName: fileName, origin: origin)
            return Result(activity: activity, diagnostics: diagnostics, isMask: false)
        } catch {
            diagnostics.append(located(error.message, fileName: fileName, json: json, data: data))
            diagnostics.sort { ($0.line, $0.column) < ($1.line, $1.column) }
            return Result(activity: nil, diagnostics: diagnostics, isMask: false)
        }
    }

    private static func failure(_ diagnostic: ManifestDiagnostic) -> Result {
        Result(activity: nil, diagnostics: [diagnostic], isMask: false)
    }

    /// A warning for each top-level key the broker ignores, with the nearest known key when
    /// one is a likely typo (`catgory` → `category`).
    static func unknownKeyWarnings(_ json: JSONValue, data: [UInt8]) -> [ManifestDiagnostic] {
        guard case .object(let top) = json else { return [] }
        return top.keys.filter { !Manifest.topLevelKeys.contains($0) }.map { key in
            let offset = JSONValue.offsets(of: [.key(key)], in: data)
            let (line, column) = lineAndColumn(of: offset?.key ?? 0, in: data)
            var message = "unknown key '\(HostName.printable(String(key.prefix(80))))' (ignored)"
            if let suggestion = nearestKey(to: key) {
                message = "unknown key '\(HostName.printable(key))' (did you mean '\(suggestion)'?)"
            }
            return ManifestDiagnostic(
                severity: .warning, line: line, column: column, field: "", message: message)
        }.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// The known key within two edits (one for short keys) of `key`, ignoring case.
    static func nearestKey(to key: String) -> String? {
        let lowered = Array(key.lowercased())
        guard lowered.count <= 64 else { return nil }
        let limit = lowered.count <= 4 ? 1 : 2
        return Manifest.topLevelKeys.filter { !$0.hasPrefix("$") }
            .map { ($0, editDistance(lowered, Array($0))) }
            .filter { $0.1 <= limit }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }

    /// Levenshtein distance with transpositions counted as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }

    /// Turns `Manifest.decode`'s message ("FILE: FIELD: MESSAGE") into a located diagnostic:
    /// at the field's value, at the key for an unknown key, and at the enclosing object when the
    /// field is missing.
    static func located(_ message: String, fileName: String, json: JSONValue, data: [UInt8])
        -> ManifestDiagnostic
    {
        var rest = Substring(message)
        if rest.hasPrefix(fileName + ": ") { rest = rest.dropFirst(fileName.count + 2) }
        var field = ""
        var text = String(rest)
        if let separator = rest.firstRange(of: ": ") {
            field = String(rest[..<separator.lowerBound])
            text = String(rest[separator.upperBound...])
        }
        let (path, complete) = steps(of: field, in: json)
        let offsets = JSONValue.offsets(of: path, in: data)
        let offset = (complete && text.hasPrefix("unknown key") ? offsets?.key : nil) ?? offsets?.value ?? 0
        let (line, column) = lineAndColumn(of: offset, in: data)
        return ManifestDiagnostic(severity: .error, line: line, column: column, field: field, message: text)
    }

    /// The steps of a field path as far as they exist in `json`. Keys are matched against the
    /// object's actual keys, longest first, because a key may itself contain a dot (`names.ca@valencia`
    /// is fine, but a locale key such as `x.y` is not ruled out before it is reported).
    static func steps(of field: String, in json: JSONValue) -> (steps: [JSONPathStep], complete: Bool) {
        var steps: [JSONPathStep] = []
        var rest = Substring(field)
        var node = json
        while !rest.isEmpty {
            if rest.hasPrefix(".") { rest = rest.dropFirst() }
            switch node {
            case .object(let members):
                let key = members.keys.filter { key in
                    guard rest.hasPrefix(key) else { return false }
                    let after = rest.dropFirst(key.count)
                    return after.isEmpty || after.hasPrefix(".") || after.hasPrefix("[")
                }.max { $0.count < $1.count }
                guard let key, let child = members[key] else { return (steps, false) }
                steps.append(.key(key))
                rest = rest.dropFirst(key.count)
                node = child
            case .array(let elements):
                guard rest.hasPrefix("["), let close = rest.firstIndex(of: "]"),
                    let index = Int(rest[rest.index(after: rest.startIndex)..<close]),
                    elements.indices.contains(index)
                else { return (steps, false) }
                steps.append(.index(index))
                rest = rest[rest.index(after: close)...]
                node = elements[index]
            default:
                return (steps, false)
            }
        }
        return (steps, true)
    }

    /// 1-based line and column (in Unicode scalars) of a byte offset.
    public static func lineAndColumn(of offset: Int, in data: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in data.prefix(max(0, offset)) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
