// Golden tests of the shipped manifests in extensions/: each decodes, is translated, and
// expands a tricky input to exactly the expected URL or arguments.
import Foundation
import Testing

@testable import ActivityKit

@Suite struct BuiltinManifestTests {
    static let extensionsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("extensions")

    static var manifestNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: extensionsDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    static func load(_ name: String) throws -> Activity {
        let data = Array(try Data(contentsOf: extensionsDirectory.appendingPathComponent(name)))
        return try Manifest.decode(data, fileName: name, origin: .builtin)
    }

    /// A URL with a query and fragment, and a title with every character that must not leak
    /// into a share URL unencoded: `&`, `#`, a newline, an emoji, quotes.
    static let tricky = try! Items(url: "https://example.org/a?b=c&d=e#frag", title: "Tom & Jerry #1\n🎉 \"quoted\"")
    static let url = "https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc%26d%3De%23frag"
    static let title = "Tom%20%26%20Jerry%20%231%0A%F0%9F%8E%89%20%22quoted%22"

    @Test func everyShippedManifestDecodesWithTranslations() throws {
        #expect(Self.manifestNames.count >= 12)
        for name in Self.manifestNames {
            let activity = try Self.load(name)
            #expect(activity.id.rawValue.hasPrefix("org.activitybroker."), "\(name)")
            for language in ["de", "fr", "es", "ja"] {
                #expect(activity.names[language]?.isEmpty == false, "\(name) lacks a \(language) name")
            }
        }
    }

    @Test(arguments: [
        ("telegram.json", "https://t.me/share/url?url=\(url)&text=\(title)"),
        ("whatsapp.json", "https://wa.me/?text=\(title)%20\(url)"),
        ("x.json", "https://twitter.com/intent/tweet?text=\(title)&url=\(url)"),
        ("bluesky.json", "https://bsky.app/intent/compose?text=\(title)%20\(url)"),
        ("reddit.json", "https://www.reddit.com/submit?url=\(url)&title=\(title)"),
        ("linkedin.json", "https://www.linkedin.com/sharing/share-offsite/?url=\(url)"),
        ("hacker-news.json", "https://news.ycombinator.com/submitlink?u=\(url)&t=\(title)"),
        ("facebook.json", "https://www.facebook.com/sharer/sharer.php?u=\(url)"),
        ("email-link.json", "mailto:?subject=\(title)&body=\(url)"),
        ("open-in-browser.json", "https://example.org/a?b=c&d=e#frag"),
    ])
    func openTemplateExpandsExactly(name: String, expected: String) throws {
        guard case .open(let spec) = try Self.load(name).perform else {
            Issue.record("\(name) is not an open activity")
            return
        }
        #expect(try spec.url(for: Self.tricky) == expected)
    }

    @Test func copyLinkWritesTheURLAloneToEachClipboardTool() throws {
        guard case .candidates(let candidates) = try Self.load("copy-link.json").perform else {
            Issue.record("copy-link.json has no candidates")
            return
        }
        let programs = candidates.compactMap { candidate -> String? in
            guard case .exec(let exec) = candidate.action else { return nil }
            #expect(exec.input(for: Self.tricky) == "https://example.org/a?b=c&d=e#frag")
            return exec.arguments(for: Self.tricky).first
        }
        #expect(programs == ["wl-copy", "xclip", "xsel"])
        #expect(candidates.map(\.env) == [["WAYLAND_DISPLAY"], ["DISPLAY"], ["DISPLAY"]])
    }

    @Test func kdeConnectGetsTheURLAsOneArgument() throws {
        guard case .exec(let exec) = try Self.load("kde-connect.json").perform else {
            Issue.record("kde-connect.json is not an exec activity")
            return
        }
        #expect(exec.arguments(for: Self.tricky) == ["kdeconnect-handler", "https://example.org/a?b=c&d=e#frag"])
    }
}
