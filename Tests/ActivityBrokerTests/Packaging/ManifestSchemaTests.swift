// docs/manifest.schema.json against the shipped manifests and broken ones, with Debian's python3-jsonschema.
import ActivityKit
import Foundation
import TestSupport
import Testing

@Suite("The manifest JSON Schema")
struct ManifestSchemaTests {
    static let schema = repositoryRoot + "/docs/manifest.schema.json"

    /// Checks the schema itself, then prints one line per file: `NAME ok` or `NAME invalid: WHY`.
    static let validator = """
        import json, sys, os
        import jsonschema
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        for path in sorted(sys.argv[2:]):
            errors = list(validator.iter_errors(json.load(open(path, encoding="utf-8"))))
            name = os.path.basename(path)
            print(name, "ok" if not errors else "invalid: " + errors[0].message.replace("\\n", " ")[:200])
        """

    /// Broken manifests (file name → JSON): each is one mistake an author makes.
    static let broken: [String: String] = [
        "missing-id.json": #"{"name": "A", "category": "share", "perform": {"open": "{url}"}}"#,
        "missing-perform.json": #"{"id": "a.b", "name": "A", "category": "share"}"#,
        "bad-id.json": #"{"id": "a b", "name": "A", "category": "share", "perform": {"open": "{url}"}}"#,
        "empty-name.json": #"{"id": "a.b", "name": " ", "category": "share", "perform": {"open": "{url}"}}"#,
        "bad-category.json":
            #"{"id": "a.b", "name": "A", "category": "social", "perform": {"open": "{url}"}}"#,
        "names-not-strings.json":
            #"{"id": "a.b", "name": "A", "names": {"de": 1}, "category": "share", "perform": {"open": "{url}"}}"#,
        "match-typo.json":
            #"{"id": "a.b", "name": "A", "category": "share", "match": {"host": ["x.org"]}, "perform": {"open": "{url}"}}"#,
        "empty-schemes.json":
            #"{"id": "a.b", "name": "A", "category": "share", "match": {"schemes": []}, "perform": {"open": "{url}"}}"#,
        "relative-prefix.json":
            #"{"id": "a.b", "name": "A", "category": "share", "match": {"path_prefixes": ["docs"]}, "perform": {"open": "{url}"}}"#,
        "requires-typo.json":
            #"{"id": "a.b", "name": "A", "category": "share", "requires": {"programs": ["x"]}, "perform": {"open": "{url}"}}"#,
        "two-performs.json":
            #"{"id": "a.b", "name": "A", "category": "share", "perform": {"exec": ["x"], "open": "{url}"}}"#,
        "empty-exec.json": #"{"id": "a.b", "name": "A", "category": "share", "perform": {"exec": []}}"#,
        "placeholder-program.json":
            #"{"id": "a.b", "name": "A", "category": "share", "perform": {"exec": ["{url}"]}}"#,
        "stdin-with-open.json":
            #"{"id": "a.b", "name": "A", "category": "share", "perform": {"open": "{url}", "stdin": "{url}"}}"#,
        "env-outside-candidates.json":
            #"{"id": "a.b", "name": "A", "category": "share", "perform": {"exec": ["x"], "env": ["DISPLAY"]}}"#,
        "open-javascript.json":
            #"{"id": "a.b", "name": "A", "category": "share", "perform": {"open": "javascript:alert({url})"}}"#,
        "dbus-bad-path.json":
            #"{"id": "a.b", "name": "A", "category": "share", "perform": {"dbus": {"name": "org.example.A", "path": "org/x"}}}"#,
        "dbus-bad-name.json":
            #"{"id": "a.b", "name": "A", "category": "share", "perform": {"dbus": {"name": "example", "path": "/x"}}}"#,
        "empty-candidates.json":
            #"{"id": "a.b", "name": "A", "category": "share", "perform": {"candidates": []}}"#,
        "candidate-bad-env.json":
            #"{"id": "a.b", "name": "A", "category": "share", "perform": {"candidates": [{"exec": ["x"], "env": ["1X"]}]}}"#,
        "priority-string.json":
            #"{"id": "a.b", "name": "A", "category": "share", "perform": {"open": "{url}"}, "priority": "5"}"#,
        "alias-string.json":
            #"{"id": "a.b", "name": "A", "category": "share", "perform": {"open": "{url}"}, "default_handler_alias": "yes"}"#,
        "not-an-object.json": #"["a.b"]"#,
    ]

    /// Valid manifests beyond the shipped ones: the features the shipped files do not use.
    static let valid: [String: String] = [
        "dbus.json":
            #"{"id": "org.example.Notes.save", "name": "Save", "category": "action", "perform": {"dbus": {"name": "org.example.Notes", "path": "/org/example/Notes"}}}"#,
        "future-key.json":
            #"{"id": "a.b", "name": "A", "category": "share", "perform": {"open": "mailto:?body={url}"}, "x_new_key": 1}"#,
        "literal-braces.json":
            #"{"id": "a.b", "name": "A", "category": "share", "perform": {"exec": ["{{url}}", "{url}"], "stdin": "{title}"}}"#,
    ]

    func validate(_ files: [String]) async throws -> [String: String] {
        let run = try await runCommand("/usr/bin/python3", ["-c", Self.validator, Self.schema] + files)
        #expect(run.succeeded, "\(run.transcript)")
        var verdicts: [String: String] = [:]
        for line in run.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { verdicts[parts[0]] = parts[1] }
        }
        return verdicts
    }

    func write(_ manifests: [String: String], into directory: TemporaryDirectory) throws -> [String] {
        try manifests.map { name, json in
            try json.write(toFile: directory.file(name), atomically: true, encoding: .utf8)
            return directory.file(name)
        }
    }

    @Test("every shipped manifest and the schema's own valid examples pass, and the broker loads them too")
    func shippedManifestsValidate() async throws {
        let shipped = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/extensions")
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(shipped.count >= 10)
        let directory = try TemporaryDirectory(prefix: "schema-valid")
        defer { directory.remove() }
        let extra = try write(Self.valid, into: directory)
        let verdicts = try await validate(shipped.map { repositoryRoot + "/extensions/" + $0 } + extra)
        for name in shipped + Self.valid.keys.sorted() {
            #expect(verdicts[name] == "ok", "\(name): \(verdicts[name] ?? "no verdict")")
        }
        for (name, json) in Self.valid {
            #expect(throws: Never.self, "\(name)") {
                try Manifest.decode(Array(json.utf8), fileName: name, origin: .user)
            }
        }
    }

    @Test("the schema rejects each broken manifest, and so does the broker")
    func brokenManifestsAreRejected() async throws {
        let directory = try TemporaryDirectory(prefix: "schema-broken")
        defer { directory.remove() }
        let verdicts = try await validate(try write(Self.broken, into: directory))
        for name in Self.broken.keys.sorted() {
            #expect(
                verdicts[name]?.hasPrefix("invalid") == true, "\(name): \(verdicts[name] ?? "no verdict")")
        }
        // The set is only worth testing if each file is really broken for the broker.
        for (name, json) in Self.broken {
            #expect(throws: ActivityError.self, "\(name)") {
                try Manifest.decode(Array(json.utf8), fileName: name, origin: .user)
            }
        }
    }
}
