// PublicSuffixList: the list's algorithm (exceptions, wildcards, the implicit rule) and RegistrableDomain by it.
import Testing

@testable import ActivityKit

/// The algorithm on a small list in the publicsuffix.org format, with the cases of the list's
/// own test file (`test_psl.txt`) that it covers; the whole system list is held to libpsl's
/// answers by `PublicSuffixListDifferentialTests`.
@Suite struct PublicSuffixListTests {
    static let list = PublicSuffixList(
        text: """
            // ===BEGIN ICANN DOMAINS===
            com
            uk
            co.uk
            jp
            kyoto.jp
            *.kawasaki.jp
            !city.kawasaki.jp
            *.ck
            !www.ck
            公司.cn
            cn
            // ===BEGIN PRIVATE DOMAINS===
            github.io
            s3.amazonaws.com  this-word-is-ignored
            *.compute.amazonaws.com
            """)

    @Test(arguments: [
        ("com", "com"),
        ("example.com", "example.com"),
        ("www.example.com", "example.com"),
        ("a.b.example.co.uk", "example.co.uk"),
        ("co.uk", "co.uk"),
        ("example.kyoto.jp", "example.kyoto.jp"),
        ("b.ide.kyoto.jp", "ide.kyoto.jp"),
        ("c.b.kawasaki.jp", "c.b.kawasaki.jp"),
        ("b.kawasaki.jp", "b.kawasaki.jp"),
        ("city.kawasaki.jp", "city.kawasaki.jp"),
        ("www.city.kawasaki.jp", "city.kawasaki.jp"),
        ("www.ck", "www.ck"),
        ("www.www.ck", "www.ck"),
        ("test.ck", "test.ck"),
        ("b.test.ck", "b.test.ck"),
        ("alice.github.io", "alice.github.io"),
        ("www.alice.github.io", "alice.github.io"),
        ("github.io", "github.io"),
        ("bucket.s3.amazonaws.com", "bucket.s3.amazonaws.com"),
        // A wildcard's own name is a suffix too, as libpsl reads the list (not `amazonaws.com`).
        ("compute.amazonaws.com", "compute.amazonaws.com"),
        ("a.b.eu-west-1.compute.amazonaws.com", "b.eu-west-1.compute.amazonaws.com"),
        ("shop.xn--55qx5d.cn", "shop.xn--55qx5d.cn"),
        ("a.shop.xn--55qx5d.cn", "shop.xn--55qx5d.cn"),
        ("example.unlisted", "example.unlisted"),
        ("a.b.example.unlisted", "example.unlisted"),
        ("localhost", "localhost"),
    ])
    func registrableDomain(host: String, domain: String) {
        #expect(Self.list.registrableDomain(of: host) == domain)
    }

    @Test func rulesAreCountedByKindAndCommentsSkipped() {
        #expect(Self.list.count == 14)
        #expect(PublicSuffixList(text: "// only a comment\n\n   \n").count == 0)
    }

    @Test func registrableDomainKeepsIPLiteralsWholeWithTheList() {
        #expect(RegistrableDomain.of(host: "10.1.2.3", suffixes: Self.list) == "10.1.2.3")
        #expect(RegistrableDomain.of(host: "::1", suffixes: Self.list) == "::1")
        #expect(RegistrableDomain.of(host: "WWW.Alice.GitHub.io", suffixes: Self.list) == "alice.github.io")
    }

    /// Without a list the approximation still knows common two-level suffixes.
    @Test func withoutAListTheApproximationStands() {
        #expect(RegistrableDomain.of(host: "www.bbc.co.uk", suffixes: nil) == "bbc.co.uk")
        #expect(RegistrableDomain.of(host: "alice.github.io", suffixes: nil) == "github.io")
    }

    /// Debian's `publicsuffix` is installed by `make test`: the sites come from it.
    @Test func theSystemListIsReadAndUsed() throws {
        let system = try #require(PublicSuffixList.system, "no list at \(PublicSuffixList.systemPath)")
        #expect(system.count > 5_000)
        #expect(RegistrableDomain.of(host: "alice.github.io") == "alice.github.io")
        #expect(RegistrableDomain.of(host: "www.bbc.co.uk") == "bbc.co.uk")
    }

    /// A host of 127 labels was looked up suffix by suffix, each joined anew: about a
    /// millisecond of the loop per call from any client (a review measured it). Only the
    /// suffixes a rule could match are looked at now; the answer is the same.
    @Test func aHostOfManyLabelsIsLookedUpOnlyAsDeepAsTheRulesGo() {
        let deep = Array(repeating: "a", count: 120).joined(separator: ".") + ".b.kawasaki.jp"
        #expect(Self.list.registrableDomain(of: deep) == "a.b.kawasaki.jp")
        let excepted = Array(repeating: "a", count: 120).joined(separator: ".") + ".city.kawasaki.jp"
        #expect(Self.list.registrableDomain(of: excepted) == "city.kawasaki.jp")
        #expect(Self.list.publicSuffixLabels(deep.split(separator: ".")) == 3)
    }

    @Test func listedSuffixesAreTheRulesNotTheImplicitOne() {
        #expect(Self.list.isListedSuffix("github.io"))
        #expect(Self.list.isListedSuffix("co.uk"))
        #expect(Self.list.isListedSuffix("kawasaki.jp") && Self.list.isListedSuffix("x.kawasaki.jp"))
        #expect(!Self.list.isListedSuffix("city.kawasaki.jp"), "an exception is a registrable domain")
        #expect(!Self.list.isListedSuffix("localhost"))
        #expect(!Self.list.isListedSuffix("alice.github.io"))
    }

    /// An empty or cut file would make every `*.co.uk` host the site `co.uk`: such a file is no list.
    @Test func aFileThatDoesNotLookWholeIsNoList() {
        #expect(PublicSuffixList.whole(PublicSuffixList(text: ""), text: "") == nil)
        #expect(
            PublicSuffixList.whole(Self.list, text: "// ===BEGIN ICANN DOMAINS===\ncom\n") == nil,
            "too few rules")
        let many = (0..<PublicSuffixList.minimumRules).map { "r\($0).example" }.joined(separator: "\n")
        #expect(PublicSuffixList.whole(PublicSuffixList(text: many), text: many) == nil, "no ICANN section")
        let whole = "// ===BEGIN ICANN DOMAINS===\n" + many
        #expect(PublicSuffixList.whole(PublicSuffixList(text: whole), text: whole) != nil)
    }
}
