// The length bounds a manifest and a registration share: each scheme, each path prefix, perform.dbus.path.

import Testing

@testable import ActivityKit

struct MatchRuleLengthTests {
    @Test(
        "Regression: a scheme or a path prefix of any length was accepted; one byte past the bound names the entry"
    )
    func schemeAndPrefixLength() throws {
        let scheme = String(repeating: "s", count: MatchRule.maxSchemeLength)
        #expect(try MatchRule(schemes: ["https", scheme]).schemes.last == scheme)
        let longScheme = caught { try MatchRule(schemes: ["https", scheme + "s"]) }
        #expect(longScheme?.name == "InvalidArgument")
        #expect(longScheme?.message.hasPrefix("schemes[1]: ") == true)

        let prefix = "/" + String(repeating: "p", count: MatchRule.maxPathPrefixLength - 1)
        #expect(try MatchRule(pathPrefixes: [prefix]).pathPrefixes == [prefix])
        let longPrefix = caught { try MatchRule(pathPrefixes: ["/a", prefix + "p"]) }
        #expect(longPrefix?.name == "InvalidArgument")
        #expect(longPrefix?.message.hasPrefix("path_prefixes[1]: ") == true)
    }

    @Test(
        "Regression: a manifest's perform.dbus.path had no length bound; 1025 bytes is refused, naming the field"
    )
    func manifestObjectPathLength() throws {
        func manifest(pathBytes: Int) -> String {
            let path = "/" + String(repeating: "o", count: pathBytes - 1)
            return
                #"{"id":"a.b","name":"A","category":"share","perform":{"dbus":{"name":"org.example.A","path":"\#(path)"}}}"#
        }
        _ = try Manifest.decode(
            Array(manifest(pathBytes: Manifest.maxObjectPathLength).utf8), fileName: "x.json", origin: .user)
        let error = caught {
            try Manifest.decode(
                Array(manifest(pathBytes: Manifest.maxObjectPathLength + 1).utf8), fileName: "x.json",
                origin: .user)
        }
        #expect(error?.name == "InvalidArgument")
        #expect(error?.message.hasPrefix("x.json: perform.dbus.path: ") == true)
    }
}
