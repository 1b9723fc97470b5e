// Manifest: decoding and validation of one activity manifest file (API.md §4).

/// Decodes manifest files. Every error is `.invalidArgument` whose message starts with the file name
/// and the field, e.g. "telegram.json: perform: expected exactly one of exec, open, dbus, candidates".
///
/// Choices where API.md is silent:
/// - unknown top-level keys are ignored (forward compatibility); unknown keys inside `match`,
///   `requires`, `perform`, `perform.dbus` and a candidate are errors, because ignoring a rule we do
///   not understand would offer or run the activity more widely than its author meant;
/// - `icon` defaults to "" (no icon: clients show their generic one);
/// - an id defined by two files: the registry keeps the higher-precedence one (see `Registry`);
/// - `exec[0]` must not contain a placeholder (the shared URL must never choose the program);
/// - an `open` template must start with `https:`, `http:` or `mailto:`, or be exactly `{url}`.
public enum Manifest {
    /// The largest manifest file read.
    public static let maxFileSize = 1024 * 1024
    /// The longest display name accepted, in UTF-8 bytes.
    public static let maxNameLength = 1024
    /// The longest object path of an activity's D-Bus service (`perform.dbus.path`, and a
    /// registration's `object_path`), in bytes. D-Bus sets no limit of its own; the path is
    /// kept for the activity's life and sent with every call to the service.
    public static let maxObjectPathLength = 1024

    /// The top-level keys the broker reads; `$schema` is allowed for editors that validate
    /// against docs/manifest.schema.json. Others are ignored, and `share check` warns of them.
    public static let topLevelKeys: Set<String> = [
        "id", "name", "names", "icon", "category", "match", "requires", "perform", "priority",
        "default_handler_alias", "$schema",
    ]

    /// Whether the file's contents mask a lower file of the same name (empty or only white space).
    public static func isMask(_ data: [UInt8]) -> Bool {
        data.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    /// Decodes one manifest file.
    /// - Parameters:
    ///   - data: the file's contents (not a mask: check `isMask` first).
    ///   - fileName: the name used in messages, e.g. "telegram.json".
    ///   - origin: the layer it was read from.
    /// - Throws: `.invalidArgument` naming the file and the field.
    public static func decode(_ data: [UInt8], fileName: String, origin: ActivityOrigin) throws(ActivityError)
        -> Activity
    {
        let d = ManifestDecoder(file: fileName)
        if data.count > maxFileSize {
            throw .invalidArgument("\(fileName): the file is larger than 1 MiB")
        }
        guard let json = JSONValue.parse(data) else {
            throw .invalidArgument("\(fileName): not valid JSON")
        }
        guard case .object(let top) = json else {
            throw .invalidArgument(
                "\(fileName): expected a JSON object at the top level, found \(json.kindDescription)")
        }
        let idString = try d.string(top["id"], "id", required: true)!
        let id: ActivityID
        do { id = try ActivityID(idString) } catch { throw d.fail("id", error.message) }

        let name = try d.string(top["name"], "name", required: true)!
        if name.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
            throw d.fail("name", "must not be empty")
        }
        if name.utf8.count > maxNameLength { throw d.fail("name", "longer than \(maxNameLength) bytes") }

        var names: [String: String] = [:]
        if let raw = top["names"] {
            guard case .object(let obj) = raw else {
                throw d.fail("names", "expected an object of locale → name, found \(raw.kindDescription)")
            }
            for (locale, v) in obj {
                let field = "names.\(locale)"
                if locale.isEmpty
                    || !locale.utf8.allSatisfy({ HostName.isAlnum($0) || "_-@.".utf8.contains($0) })
                {
                    throw d.fail(field, "'\(locale.prefix(40))' is not a locale name such as 'de' or 'pt_BR'")
                }
                let n = try d.string(v, field, required: true)!
                if n.isEmpty || n.utf8.count > maxNameLength {
                    throw d.fail(field, "must be 1 to \(maxNameLength) bytes")
                }
                names[locale] = n
            }
        }

        let icon = try d.string(top["icon"], "icon") ?? ""
        if !icon.hasPrefix("/") && icon.contains("/") {
            throw d.fail("icon", "'\(icon.prefix(80))' is neither an icon name nor an absolute path")
        }

        let categoryString = try d.string(top["category"], "category", required: true)!
        guard let category = ActivityCategory(rawValue: categoryString) else {
            throw d.fail("category", "'\(categoryString.prefix(40))' is not 'share' or 'action'")
        }

        let match = try d.matchRule(top["match"])
        let requires = try d.requirements(top["requires"])
        guard let performValue = top["perform"] else { throw d.fail("perform", "is required") }
        let perform = try d.perform(performValue)

        var priority = 0
        if let p = top["priority"] {
            guard case .int(let v) = p else {
                throw d.fail("priority", "expected an integer, found \(p.kindDescription)")
            }
            priority = v
        }
        var alias = false
        if let a = top["default_handler_alias"] {
            guard case .bool(let v) = a else {
                throw d.fail("default_handler_alias", "expected true or false, found \(a.kindDescription)")
            }
            alias = v
        }
        return Activity(
            id: id, name: name, names: names, icon: icon, category: category, origin: origin,
            match: match, requires: requires, perform: perform, priority: priority, defaultHandlerAlias: alias)
    }
}

/// The field-by-field decoding, carrying the file name for messages.
struct ManifestDecoder {
    let file: String

    /// Control characters from the file are shown as U+XXXX: messages end up in one-line logs.
    func fail(_ field: String, _ message: String) -> ActivityError {
        .invalidArgument(HostName.printable("\(file): \(field): \(message)"))
    }

    func string(_ v: JSONValue?, _ field: String, required: Bool = false) throws(ActivityError) -> String? {
        guard let v else {
            if required { throw fail(field, "is required") }
            return nil
        }
        guard case .string(let s) = v else {
            throw fail(field, "expected a string, found \(v.kindDescription)")
        }
        if s.utf8.contains(0) { throw fail(field, "contains a NUL character") }
        return s
    }

    func strings(_ v: JSONValue?, _ field: String) throws(ActivityError) -> [String]? {
        guard let v else { return nil }
        guard case .array(let a) = v else {
            throw fail(field, "expected an array of strings, found \(v.kindDescription)")
        }
        var out: [String] = []
        for (i, e) in a.enumerated() {
            out.append(try string(e, "\(field)[\(i)]", required: true)!)
        }
        return out
    }

    func object(_ v: JSONValue, _ field: String, keys: Set<String>) throws(ActivityError) -> [String:
        JSONValue]
    {
        guard case .object(let o) = v else {
            throw fail(field, "expected an object, found \(v.kindDescription)")
        }
        if let unknown = o.keys.sorted().first(where: { !keys.contains($0) }) {
            throw fail(
                "\(field).\(unknown)", "unknown key (expected \(keys.sorted().joined(separator: ", ")))")
        }
        return o
    }

    func matchRule(_ v: JSONValue?) throws(ActivityError) -> MatchRule {
        guard let v else { return .httpAny }
        let o = try object(v, "match", keys: ["schemes", "hosts", "path_prefixes"])
        let schemes = try strings(o["schemes"], "match.schemes")
        let hosts = try strings(o["hosts"], "match.hosts")
        let prefixes = try strings(o["path_prefixes"], "match.path_prefixes")
        do {
            return try MatchRule(schemes: schemes, hosts: hosts, pathPrefixes: prefixes)
        } catch {
            throw error.prefixed("\(file): match.")
        }
    }

    func requirements(_ v: JSONValue?) throws(ActivityError) -> Requirements {
        guard let v else { return .none }
        let o = try object(v, "requires", keys: ["executables", "dbus_names"])
        let executables = try strings(o["executables"], "requires.executables") ?? []
        for (i, e) in executables.enumerated() {
            if e.isEmpty || (e.contains("/") && !e.hasPrefix("/")) {
                throw fail(
                    "requires.executables[\(i)]",
                    "'\(e.prefix(80))' is neither a program name nor an absolute path")
            }
        }
        let names = try strings(o["dbus_names"], "requires.dbus_names") ?? []
        for (i, n) in names.enumerated() where !DBusSyntax.isValidBusName(n) {
            throw fail("requires.dbus_names[\(i)]", "'\(n.prefix(80))' is not a valid well-known bus name")
        }
        return Requirements(executables: executables, dbusNames: names)
    }

    static let performKinds = ["exec", "open", "dbus", "candidates"]

    func perform(_ v: JSONValue) throws(ActivityError) -> PerformSpec {
        guard case .object(let o) = v else {
            throw fail("perform", "expected an object, found \(v.kindDescription)")
        }
        let kinds = ManifestDecoder.performKinds.filter { o[$0] != nil }
        guard kinds.count == 1 else {
            let found = kinds.isEmpty ? "" : " (found \(kinds.joined(separator: ", ")))"
            throw fail("perform", "expected exactly one of exec, open, dbus, candidates\(found)")
        }
        switch kinds[0] {
        case "exec", "open":
            let c = try candidate(o, field: "perform", allowEnv: false)
            return c.performSpec
        case "dbus":
            if let extra = o.keys.sorted().first(where: { $0 != "dbus" }) {
                throw fail("perform.\(extra)", "unknown key next to dbus")
            }
            let d = try object(o["dbus"]!, "perform.dbus", keys: ["name", "path"])
            let name = try string(d["name"], "perform.dbus.name", required: true)!
            if !DBusSyntax.isValidBusName(name) {
                throw fail(
                    "perform.dbus.name",
                    "'\(name.prefix(80))' is not a valid well-known bus name such as 'org.example.App'")
            }
            let path = try string(d["path"], "perform.dbus.path", required: true)!
            if path.utf8.count > Manifest.maxObjectPathLength {
                throw fail(
                    "perform.dbus.path",
                    "\(path.utf8.count) bytes long; at most \(Manifest.maxObjectPathLength) are allowed")
            }
            if !DBusSyntax.isValidObjectPath(path) {
                throw fail(
                    "perform.dbus.path",
                    "'\(path.prefix(80))' is not a valid object path such as '/org/example/App'")
            }
            return .dbus(busName: name, objectPath: path)
        default:
            if let extra = o.keys.sorted().first(where: { $0 != "candidates" }) {
                throw fail("perform.\(extra)", "unknown key next to candidates")
            }
            guard case .array(let list) = o["candidates"]! else {
                throw fail(
                    "perform.candidates",
                    "expected an array of exec or open objects, found \(o["candidates"]!.kindDescription)")
            }
            if list.isEmpty { throw fail("perform.candidates", "must not be empty") }
            var out: [Candidate] = []
            for (i, e) in list.enumerated() {
                let field = "perform.candidates[\(i)]"
                guard case .object(let co) = e else {
                    throw fail(field, "expected an object, found \(e.kindDescription)")
                }
                let ck = ["exec", "open"].filter { co[$0] != nil }
                guard ck.count == 1 else { throw fail(field, "expected exactly one of exec, open") }
                out.append(try candidate(co, field: field, allowEnv: true))
            }
            return .candidates(out)
        }
    }

    /// An `exec` (with optional `stdin`) or `open` object, with `env` when `allowEnv`.
    func candidate(_ o: [String: JSONValue], field: String, allowEnv: Bool) throws(ActivityError) -> Candidate
    {
        let isExec = o["exec"] != nil
        var allowed: Set<String> = isExec ? ["exec", "stdin"] : ["open"]
        if allowEnv { allowed.insert("env") }
        if let extra = o.keys.sorted().first(where: { !allowed.contains($0) }) {
            let hint =
                extra == "stdin"
                ? "stdin is only allowed with exec"
                : "unknown key (expected \(allowed.sorted().joined(separator: ", ")))"
            throw fail("\(field).\(extra)", hint)
        }
        var env: [String] = []
        if allowEnv {
            env = try strings(o["env"], "\(field).env") ?? []
            for (i, name) in env.enumerated() where !DBusSyntax.isValidVariableName(name) {
                throw fail("\(field).env[\(i)]", "'\(name.prefix(80))' is not an environment variable name")
            }
        }
        if isExec {
            guard case .array(let a) = o["exec"]! else {
                throw fail(
                    "\(field).exec",
                    "expected a non-empty array of strings, found \(o["exec"]!.kindDescription)")
            }
            if a.isEmpty {
                throw fail("\(field).exec", "must not be empty: the first element is the program")
            }
            var argv: [Template] = []
            for (i, e) in a.enumerated() {
                argv.append(
                    try template(string(e, "\(field).exec[\(i)]", required: true)!, "\(field).exec[\(i)]"))
            }
            let stdin = try string(o["stdin"], "\(field).stdin").map { s throws(ActivityError) in
                try template(s, "\(field).stdin")
            }
            do {
                return Candidate(action: .exec(try ExecSpec(argv: argv, stdin: stdin)), env: env)
            } catch {
                // ExecSpec names "exec…" itself.
                throw error.prefixed("\(file): \(field).")
            }
        }
        let source = try string(o["open"], "\(field).open", required: true)!
        let t = try template(source, "\(field).open")
        do {
            return Candidate(action: .open(try OpenSpec(template: t)), env: env)
        } catch {
            throw fail("\(field).open", error.message.replacing("open: ", with: ""))
        }
    }

    func template(_ s: String, _ field: String) throws(ActivityError) -> Template {
        do { return try Template(s) } catch { throw fail(field, error.message) }
    }
}
