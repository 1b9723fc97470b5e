// Tests of the registry: masking and precedence, owners and limits, and the index against a brute-force scan.

import ActivityFuzzing
import TestSupport
import Testing

@testable import ActivityKit

struct RegistryTests {
    @Test func higherLayerFileMasksAndWins() {
        var r = Registry()
        r.setStaticLayers([
            StaticLayer(
                origin: .user,
                entries: [
                    "telegram.json": .masked, "copy.json": .activity(activity("copy", name: "User Copy")),
                ]),
            StaticLayer(
                origin: .system,
                entries: [
                    "telegram.json": .activity(activity("telegram")),
                    "mail.json": .activity(activity("mail")),
                ]),
            StaticLayer(
                origin: .builtin,
                entries: [
                    "copy.json": .activity(activity("copy", name: "Builtin Copy")),
                    "telegram.json": .activity(activity("telegram")),
                ]),
        ])
        #expect(r.all.map(\.id.rawValue) == ["copy", "mail"])
        #expect(r.activity(id("copy"))?.name == "User Copy")
        #expect(r.activity(id("copy"))?.origin == .user)
        #expect(r.activity(id("mail"))?.origin == .system)
        #expect(r.activity(id("telegram")) == nil)
        #expect(r.count == 2)
        #expect(r.conflicts.isEmpty)
    }

    @Test func sameIdInTwoFilesHigherLayerWins() {
        var r = Registry()
        r.setStaticLayers([
            StaticLayer(origin: .user, entries: ["mine.json": .activity(activity("dup", name: "Mine"))]),
            StaticLayer(
                origin: .builtin, entries: ["theirs.json": .activity(activity("dup", name: "Theirs"))]),
        ])
        #expect(r.activity(id("dup"))?.name == "Mine")
        #expect(r.count == 1)
        #expect(r.conflicts.count == 1)
        #expect(r.conflicts.first?.contains("theirs.json") == true)
    }

    @Test func dynamicOwnership() throws {
        var r = Registry()
        r.setStaticLayers([StaticLayer(origin: .builtin, entries: ["s.json": .activity(activity("static"))])])
        try r.register(activity("dyn", name: "One"), owner: ":1.1")
        try r.register(activity("dyn", name: "Two"), owner: ":1.1")
        #expect(r.activity(id("dyn"))?.name == "Two")
        #expect(r.activity(id("dyn"))?.origin == .dbus)
        #expect(r.activity(id("dyn"))?.owner == ":1.1")
        #expect(r.count == 2)
        guard case .alreadyExists? = caught({ try r.register(activity("dyn"), owner: ":1.2") }) else {
            Issue.record("another owner took the id")
            return
        }
        guard case .alreadyExists? = caught({ try r.register(activity("static"), owner: ":1.2") }) else {
            Issue.record("a manifest's id was registered")
            return
        }
        guard case .accessDenied? = caught({ try r.unregister(id("dyn"), caller: ":1.2") }) else {
            Issue.record("another owner unregistered")
            return
        }
        guard case .accessDenied? = caught({ try r.unregister(id("static"), caller: ":1.1") }) else {
            Issue.record("static unregistered")
            return
        }
        guard case .notFound? = caught({ try r.unregister(id("nope"), caller: ":1.1") }) else {
            Issue.record("unknown id unregistered")
            return
        }
        try r.unregister(id("dyn"), caller: ":1.1")
        #expect(r.activity(id("dyn")) == nil)
        #expect(r.matching(url("https://a.example/")).map(\.id.rawValue) == ["static"])
    }

    @Test func limitPerOwner() throws {
        var r = Registry()
        for i in 0..<Registry.maxActivitiesPerOwner {
            try r.register(activity("a\(i)"), owner: ":1.1")
        }
        guard case .limitExceeded? = caught({ try r.register(activity("one.more"), owner: ":1.1") }) else {
            Issue.record("limit not enforced")
            return
        }
        try r.register(activity("a0", name: "replaced"), owner: ":1.1")  // replacing stays allowed
        try r.register(activity("other"), owner: ":1.2")  // the limit is per owner
        #expect(r.count(ownedBy: ":1.1") == 256)
        let removed = r.removeAll(ownedBy: ":1.1")
        #expect(removed.count == 256)
        #expect(r.count == 1)
        #expect(r.removeAll(ownedBy: ":1.1").isEmpty)
        try r.register(activity("one.more"), owner: ":1.1")
    }

    @Test func manifestAppearingForALiveRegistrationWaitsForIt() throws {
        var r = Registry()
        try r.register(activity("x", name: "Dynamic", hosts: ["d.example"]), owner: ":1.1")
        r.setStaticLayers([
            StaticLayer(
                origin: .user,
                entries: ["x.json": .activity(activity("x", name: "Static", hosts: ["s.example"]))])
        ])
        #expect(r.activity(id("x"))?.name == "Dynamic")
        #expect(r.count == 1)
        #expect(r.matching(url("https://d.example/")).count == 1)
        #expect(r.matching(url("https://s.example/")).isEmpty)
        r.removeAll(ownedBy: ":1.1")
        #expect(r.activity(id("x"))?.name == "Static")
        #expect(r.matching(url("https://d.example/")).isEmpty)
        #expect(r.matching(url("https://s.example/")).count == 1)
    }

    @Test func indexAgreesWithBruteForce() async throws {
        try await offPool {
            var rng = SplitMix64(seed: 20_261_129)
            let domains = [
                "youtube.com", "m.youtube.com", "youtu.be", "example.org", "a.b.example.org",
                "xn--bcher-kva.example", "org", "evil-youtube.com",
            ]
            let globs =
                domains + domains.map { "*." + $0 } + ["*", "bücher.example", "*.BÜCHER.example", "[::1]"]
            let paths = ["/", "/watch", "/watch/", "/shorts", "/a/b"]
            let schemes = ["http", "https", "ftp", "mailto", "HTTPS"]
            var r = Registry()
            var statics: [String: StaticEntry] = [:]
            for i in 0..<600 {
                let hosts: [String]? =
                    Bool.random(using: &rng)
                    ? nil
                    : (0..<Int.random(in: 1...3, using: &rng)).map { _ in globs.randomElement(using: &rng)! }
                let ps: [String]? =
                    Int.random(in: 0..<3, using: &rng) == 0
                    ? (0..<Int.random(in: 1...2, using: &rng)).map { _ in paths.randomElement(using: &rng)! }
                    : nil
                let ss: [String]? =
                    Bool.random(using: &rng)
                    ? nil
                    : (0..<Int.random(in: 1...2, using: &rng)).map { _ in
                        schemes.randomElement(using: &rng)!
                    }
                let a = activity("r\(i)", schemes: ss, hosts: hosts, paths: ps)
                if i % 3 == 0 {
                    statics["r\(i).json"] = .activity(a)
                } else {
                    try r.register(a, owner: ":1.\(i % 7)")
                }
            }
            r.setStaticLayers([StaticLayer(origin: .system, entries: statics)])
            // Some churn so incremental updates are exercised.
            for i in stride(from: 1, to: 600, by: 5) where i % 3 != 0 {
                try r.unregister(id("r\(i)"), caller: ":1.\(i % 7)")
            }
            let urlHosts =
                domains + [
                    "www.youtube.com", "a.m.youtube.com", "youtube.com.evil.org", "b.example.org",
                    "bücher.example", "x.bücher.example", "[::1]", "[::2]", "other.net",
                ]
            var checked = 0
            let all = r.all
            for _ in 0..<400 {
                let s = ["http", "https", "ftp"].randomElement(using: &rng)!
                let h = urlHosts.randomElement(using: &rng)!
                let p = ["/", "/watch", "/watch/x", "/watchlist", "/shorts/1", "/a/b/c", "/z"].randomElement(
                    using: &rng)!
                let u = url("\(s)://\(h)\(p)")
                let viaIndex = r.matching(u).map(\.id)
                let brute = all.filter { $0.match.matches(u) }.map(\.id)
                #expect(viaIndex == brute, "\(u)")
                checked += brute.count
            }
            for m in ["mailto:a@example.org", "mailto:b@youtube.com"] {
                #expect(r.matching(url(m)).map(\.id) == r.all.filter { $0.match.matches(url(m)) }.map(\.id))
            }
            #expect(checked > 100)  // the table produced real matches, not only empty lists
        }
    }

    @Test func lookupTouchesFewCandidatesAmongTenThousand() async throws {
        try await offPool {
            var r = Registry()
            var statics: [String: StaticEntry] = [:]
            for i in 0..<5_000 {
                statics["s\(i).json"] = .activity(activity("s\(i)", hosts: ["host\(i).example"]))
            }
            r.setStaticLayers([StaticLayer(origin: .builtin, entries: statics)])
            // 10,000 single registrations in a row (incremental index updates); the first 5,000 are replaced.
            for i in 0..<5_000 {
                try r.register(activity("d\(i)", hosts: ["old\(i).example"]), owner: ":1.\(i / 200)")
            }
            for i in 0..<5_000 {
                try r.register(
                    activity("d\(i)", hosts: ["*.site\(i).example"], paths: ["/p"]), owner: ":1.\(i / 200)")
            }
            for i in 0..<10 {
                try r.register(activity("any\(i)"), owner: ":9.9")
            }
            #expect(r.count == 10_010)
            let u = url("https://www.site42.example/p/x")
            #expect(r.candidateCount(for: u) == 11)
            // Replaced rules left the index.
            #expect(r.candidateCount(for: url("https://old42.example/")) == 10)
            #expect(r.matching(u).count == 11)
            #expect(r.candidateCount(for: url("https://host7.example/")) == 11)
            #expect(r.matching(url("https://www.site42.example/q")).count == 10)
        }
    }
}
