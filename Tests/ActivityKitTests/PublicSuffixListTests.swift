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
}
