// The generated registry: a fixed core that gives the two measured URLs ~15 and ~60 activities, plus a realistic filler.
import ActivityBrokerInterface
import DBus
import Foundation

/// What the benchmark registers, for one size `total = manifests + dynamic`.
///
/// The **core** is the same at every size, so the measured lists keep their length and only the
/// registry around them grows:
/// - 12 any-host http/https activities (2 with requirements that are met, on `sh`) and 2 more
///   whose requirements are missing (never offered);
/// - 3 for `*.example.org` / `www.example.org` (one with a path prefix) → URL A gets 15;
/// - 44 for `*.example.com` / `video.example.com` (some with path prefixes) and 2 missing a
///   program, plus 4 dynamic registrations for `video.example.com` → URL B gets 60.
///
/// The **filler** follows the brief's mix: 70 % any-host, 25 % host-specific globs, 5 % path
/// prefixes, a tenth with requirements (half met, half not), mixed categories, priorities,
/// localized names and perform kinds. Any-host filler cannot be on http/https (every web URL
/// would then list thousands of activities and no count could hold), so it is any-host on
/// app schemes (`app0`…`app49`), as an installed application's `x-scheme-handler` would be;
/// host-specific filler uses hosts of its own. It is in the index the lookup walks, never in
/// the answers.
struct Workload {
    static let urlA = "https://www.example.org/news/2026/story.html"
    static let urlB = "https://video.example.com/watch/12345?t=10"
    static let expectedA = 15
    static let expectedB = 60
    /// An `open` activity (any host) for Perform → Finished through the opener.
    static let openActivity = "bench.core.any.0"
    /// The provider activity registered by the bench's own provider connection.
    static let providerActivity = "bench.provider.echo"
    static let providerURL = "https://provider.example.net/item/1"
    static let coreManifests = 63
    static let coreDynamic = 4

    let total: Int
    var dynamic: Int { max(Self.coreDynamic + 6, total / 10) }
    var manifests: Int { total - dynamic }
    /// Registering connections for the dynamic part (at most 256 activities each).
    var dynamicConnections: Int { max(2, (dynamic + 199) / 200) }

    // MARK: Manifests

    /// Writes `count` manifests starting at `first` into `directory` (core first, then filler).
    static func writeManifests(into directory: String, range: Range<Int>) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for index in range {
            let json = index < coreManifests ? core(index) : filler(index)
            let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
            let path = directory + "/bench-\(index).json"
            guard FileManager.default.createFile(atPath: path, contents: data) else {
                throw BenchFailure("cannot write \(path)")
            }
        }
    }

    private static func names(_ base: String, _ index: Int) -> [String: String] {
        ["de": "\(base) (de) \(index)", "fr": "\(base) (fr) \(index)", "ja": "\(base) 日本 \(index)"]
    }

    private static func manifest(
        id: String, name: String, category: String, match: [String: Any], requires: [String]? = nil,
        perform: [String: Any], priority: Int
    ) -> [String: Any] {
        var json: [String: Any] = [
            "id": id, "name": name, "names": names(name, priority), "icon": "bench-icon", "category": category,
            "match": match, "perform": perform, "priority": priority,
        ]
        if let requires { json["requires"] = ["executables": requires, "dbus_names": [String]()] }
        return json
    }

    private static var openSpec: [String: Any] { ["open": "https://share.example/post?u={url}&t={title}"] }
    private static var execSpec: [String: Any] { ["exec": ["/bin/true", "{url}"]] }

    /// Core manifest `index` (0..<63).
    static func core(_ index: Int) -> [String: Any] {
        let category = index % 3 == 0 ? "action" : "share"
        let priority = index % 4
        switch index {
        case 0..<12:
            // Any host: offered for both URLs. Two need `sh`, which exists.
            return manifest(
                id: "bench.core.any.\(index)", name: "Any \(index)", category: index == 0 ? "share" : category,
                match: ["schemes": ["https", "http"]], requires: index >= 10 ? ["sh"] : nil,
                perform: index % 2 == 0 ? openSpec : execSpec, priority: priority)
        case 12..<14:
            return manifest(
                id: "bench.core.missing.\(index)", name: "Missing \(index)", category: category,
                match: ["schemes": ["https", "http"]], requires: ["no-such-program-\(index)"], perform: openSpec,
                priority: priority)
        case 14..<17:
            let match: [String: Any] =
                switch index {
                case 14: ["hosts": ["*.example.org"]]
                case 15: ["hosts": ["www.example.org", "example.org"]]
                default: ["hosts": ["*.example.org"], "path_prefixes": ["/news/"]]
                }
            return manifest(
                id: "bench.core.org.\(index)", name: "Org \(index)", category: category, match: match,
                perform: openSpec, priority: priority)
        case 17..<61:
            let match: [String: Any] =
                switch index % 4 {
                case 0: ["hosts": ["*.example.com"]]
                case 1: ["hosts": ["video.example.com"]]
                case 2: ["hosts": ["*.example.com", "example.com"], "path_prefixes": ["/watch"]]
                default: ["schemes": ["https"], "hosts": ["video.example.com"], "path_prefixes": ["/watch/", "/v/"]]
                }
            return manifest(
                id: "bench.core.com.\(index)", name: "Com \(index)", category: category, match: match,
                perform: index % 2 == 0 ? openSpec : execSpec, priority: priority)
        default:
            return manifest(
                id: "bench.core.com-missing.\(index)", name: "Com missing \(index)", category: category,
                match: ["hosts": ["*.example.com"]], requires: ["no-such-program-\(index)"], perform: openSpec,
                priority: priority)
        }
    }

    /// Filler manifest `index` (≥ 63): never offered for the measured URLs.
    static func filler(_ index: Int) -> [String: Any] {
        let category = index % 2 == 0 ? "share" : "action"
        let kind = index % 20
        let match: [String: Any]
        if kind < 14 {
            match = ["schemes": ["app\(index % 50)"]]
        } else if kind < 19 {
            match = index % 2 == 0
                ? ["hosts": ["*.site\(index).example", "site\(index).example"]]
                : ["hosts": ["www.site\(index).test"]]
        } else {
            match = ["hosts": ["docs.site\(index).example"], "path_prefixes": ["/p\(index)/", "/q/"]]
        }
        var requires: [String]? = nil
        if index % 10 == 3 { requires = index % 20 == 3 ? ["sh"] : ["no-such-tool-\(index)"] }
        let perform: [String: Any] =
            switch index % 3 {
            case 0: openSpec
            case 1: execSpec
            default: ["dbus": ["name": "org.bench.Filler\(index)", "path": "/org/bench/Filler"]]
            }
        return manifest(
            id: "bench.filler.\(index)", name: "Filler \(index)", category: category, match: match,
            requires: requires, perform: perform, priority: index % 5)
    }

    // MARK: Dynamic registrations

    /// The `RegisterActivity` record of dynamic activity `index` (the first 4 match URL B).
    static func registration(_ index: Int, prefix: String = "bench.dyn") -> [String: Value] {
        let host = index < coreDynamic ? "video.example.com" : "dyn\(index).example.net"
        var record = registration(
            id: "\(prefix).\(index)", name: "Dynamic \(index)", icon: "bench-dynamic",
            category: index % 2 == 0 ? "share" : "action", host: host, objectPath: "/org/bench/Dynamic")
        record[RegistrationKey.names] = .stringDict(["de": "Dynamisch \(index)", "fr": "Dynamique \(index)"])
        return record
    }

    /// A storm registration: its own host, so the measured lists keep their length.
    static func stormRegistration(connection: Int, index: Int, tag: String = "") -> [String: Value] {
        registration(
            id: "bench.storm\(tag).c\(connection).a\(index)", name: "Storm \(connection)/\(index)", icon: "bench-storm",
            category: "share", host: "s\(index).c\(connection).storm\(tag).example", objectPath: "/org/bench/Storm")
    }

    /// A `RegisterActivity` record for one host.
    private static func registration(
        id: String, name: String, icon: String, category: String, host: String, objectPath: ObjectPath
    ) -> [String: Value] {
        [
            RegistrationKey.id: .string(id), RegistrationKey.name: .string(name), RegistrationKey.icon: .string(icon),
            RegistrationKey.category: .string(category),
            RegistrationKey.match: .vardict([RegistrationKey.hosts: .stringArray([host])]),
            RegistrationKey.objectPath: .objectPath(objectPath),
        ]
    }
}
