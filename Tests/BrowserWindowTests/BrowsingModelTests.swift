// The window's toolkit-free parts: first load, address and security, link routing, reader, content-blocker files.
import BrowserWindow
import Foundation
import Navigation
import Testing

@Suite struct InitialLoadTests {
    let start = URL(string: "http://127.0.0.1:8000/a")!

    @Test func aDirectLoadCompletesWithoutARedirect() {
        var load = InitialLoad(requested: start)
        #expect(load.finish(at: "http://127.0.0.1:8000/a") == [.initialLoadCompleted(success: true)])
        #expect(load.finish(at: "http://127.0.0.1:8000/b") == [], "later loads are not the first")
    }

    @Test func aBareOriginIsNotARedirectToItsSlash() {
        var load = InitialLoad(requested: URL(string: "HTTP://Example.ORG")!)
        #expect(load.finish(at: "http://example.org/") == [.initialLoadCompleted(success: true)])
    }

    @Test func aRedirectReportsTheFinalURLFirst() {
        var load = InitialLoad(requested: start)
        load.redirect()
        #expect(
            load.finish(at: "http://127.0.0.1:8000/b")
                == [
                    .initialLoadRedirected(url: "http://127.0.0.1:8000/b"),
                    .initialLoadCompleted(success: true),
                ])
    }

    @Test func aFailureEndsTheFirstLoadOnce() {
        var load = InitialLoad(requested: start)
        #expect(load.fail() == [.initialLoadCompleted(success: false)])
        #expect(load.finish(at: "http://127.0.0.1:8000/a") == [], "the error page's load is not a success")
        #expect(load.fail() == [])
    }
}

@Suite struct AddressBarTests {
    @Test func showsTheRegistrableDomainAndThePortButKeepsTheWholeURL() {
        let bar = AddressBar(
            url: URL(string: "https://login.example.co.uk/path?q=1"), tlsVerified: true,
            certificateError: false)
        #expect(bar.site == "example.co.uk")
        #expect(bar.fullURL == "https://login.example.co.uk/path?q=1")
        #expect(bar.security == .secure)
        #expect(bar.securityLabel == nil)
        let local = AddressBar(
            url: URL(string: "http://127.0.0.1:8080/x"), tlsVerified: false, certificateError: false)
        #expect(local.site == "127.0.0.1:8080")
        #expect(local.securityLabel == "Not Secure")
    }

    @Test func httpsWithoutTheEnginesWordIsNotSecure() {
        let unverified = AddressBar(
            url: URL(string: "https://example.org/"), tlsVerified: false, certificateError: false)
        #expect(unverified.security == .notSecure)
        let refused = AddressBar(
            url: URL(string: "https://example.org/"), tlsVerified: true, certificateError: true)
        #expect(refused.securityLabel == "Not Secure")
    }
}

@Suite struct LinkPolicyTests {
    let policy = LinkPolicy()
    let page = URL(string: "https://example.org/")!

    @Test func webLinksStayAndNewWindowsOpenHere() {
        let next = URL(string: "https://example.org/next")!
        #expect(policy.decide(url: next, source: page, newWindow: false, userInitiated: true) == .proceed)
        #expect(
            policy.decide(url: next, source: page, newWindow: true, userInitiated: true) == .loadHere(next))
    }

    @Test func otherSchemesGoToTheSystem() {
        let mail = URL(string: "mailto:someone@example.org")!
        #expect(
            policy.decide(url: mail, source: page, newWindow: false, userInitiated: true)
                == .openExternally(mail))
        let phone = URL(string: "tel:+441234")!
        #expect(
            policy.decide(url: phone, source: page, newWindow: true, userInitiated: true)
                == .openExternally(phone))
    }

    @Test func unsafeTopLevelNavigationsAreDiscarded() {
        for text in ["javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd"] {
            let decision = policy.decide(
                url: URL(string: text), source: page, newWindow: false, userInitiated: true)
            guard case .discard = decision else {
                Issue.record("\(text): \(decision)")
                continue
            }
        }
        let frame = policy.decide(
            url: URL(string: "data:text/html,hi"), source: page, newWindow: false, userInitiated: false)
        #expect(frame == .proceed, "a page's own frame may load data:")
    }
}

@Suite struct ReaderArticleTests {
    @Test func anArticleNeedsEnoughText() {
        #expect(!ReaderArticle(title: "t", paragraphs: ["short", "short"]).isArticle)
        let long = String(repeating: "word ", count: 40)
        #expect(ReaderArticle(title: "t", paragraphs: [long, long]).isArticle)
        #expect(
            !ReaderArticle(title: "t", paragraphs: [long + long]).isArticle, "one paragraph is not an article"
        )
    }

    @Test func decodesTheScriptsJSONAndEscapesTheHTML() throws {
        let article = try #require(ReaderArticle(json: #"{"title":"<T>","paragraphs":["a & b"]}"#))
        #expect(article == ReaderArticle(title: "<T>", paragraphs: ["a & b"]))
        let html = article.html(dark: false)
        #expect(html.contains("<h1>&lt;T&gt;</h1>"))
        #expect(html.contains("<p>a &amp; b</p>"))
        #expect(!html.contains("<T>"))
        #expect(ReaderArticle(json: "not json") == nil)
    }
}

@Suite struct ContentBlockerSourcesTests {
    @Test func theUsersDirectoryComesFirstAndHidesASystemFileOfTheSameName() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cb-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let sources = ContentBlockerSources(environment: [
            "HOME": root, "XDG_DATA_HOME": root + "/home", "XDG_DATA_DIRS": root + "/sys:relative",
        ])
        #expect(
            sources.directories == [
                root + "/home/activity-broker/content-blockers",
                root + "/sys/activity-broker/content-blockers",
            ])
        for directory in sources.directories {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try "[]".write(toFile: sources.directories[0] + "/ads.json", atomically: true, encoding: .utf8)
        try "[]".write(toFile: sources.directories[1] + "/ads.json", atomically: true, encoding: .utf8)
        try "[]".write(toFile: sources.directories[1] + "/track ers.json", atomically: true, encoding: .utf8)
        try "x".write(toFile: sources.directories[1] + "/notes.txt", atomically: true, encoding: .utf8)
        #expect(
            sources.files() == [
                "ads": sources.directories[0] + "/ads.json",
                "track_ers": sources.directories[1] + "/track ers.json",
            ])
    }

    @Test func websiteDataIsTheBrowsersOwn() {
        let paths = WebsiteDataPaths(environment: ["HOME": "/h"])
        #expect(paths.data == "/h/.local/share/activity-broker/web")
        #expect(paths.cache == "/h/.cache/activity-broker/web")
    }
}
