// NavigationSessionTests: history, callbacks, security indicator, sharing URL, ending, routing, reader.

import ActivityBrokerClient
import Foundation
import Navigation
import TestSupport
import Testing
@testable import TextPages

@Suite("Navigation session")
struct NavigationSessionTests {
    @Test func navigateBackForwardAndTruncation() async throws {
        try await withLoopbackServer { server in
            let session = server.session("/page/a", opener: RecordingOpener())
            try await session.start()
            #expect(await session.title == "Page & A")
            #expect(await !session.canGoBack)
            try await session.navigate(to: server.url("/page/b"))
            try await session.navigate(to: server.url("/page/c"))
            #expect(await session.currentURL == server.url("/page/c"))
            #expect(await session.backList.map(\.url) == [server.url("/page/a"), server.url("/page/b")])

            #expect(try await session.goBack())
            #expect(await session.title == "Page B")
            #expect(try await session.goBack())
            #expect(await session.currentURL == server.url("/page/a"))
            #expect(await !session.canGoBack)
            #expect(try await !session.goBack())
            #expect(await session.forwardList.map(\.url) == [server.url("/page/b"), server.url("/page/c")])

            #expect(try await session.goForward())
            #expect(await session.currentURL == server.url("/page/b"))
            #expect(await session.canGoForward)
            try await session.navigate(to: server.url("/page/d"))
            #expect(await !session.canGoForward)
            #expect(await session.forwardList.isEmpty)
            #expect(await session.backList.map(\.url) == [server.url("/page/a"), server.url("/page/b")])
            #expect(try await !session.goForward())
        }
    }

    @Test func initialRedirectAndLoadCallbacksFireOnce() async throws {
        try await withLoopbackServer { server in
            let delegate = RecordingDelegate()
            let session = server.session("/chain", opener: RecordingOpener(), delegate: delegate)
            try await session.start()
            try await session.start()  // a second start does nothing
            try await session.navigate(to: server.url("/chain"))  // a later redirect is not the initial one
            try await session.reload()
            #expect(delegate.events == [.redirect(server.url("/page/final")), .initialLoad(success: true)])
            #expect(await session.currentURL == server.url("/page/final"))
            #expect(await session.currentEntry?.requestedURL == server.url("/chain"))
        }
    }

    @Test func initialLoadWithoutRedirectReportsNoRedirect() async throws {
        try await withLoopbackServer { server in
            let delegate = RecordingDelegate()
            let session = server.session("/page/a", opener: RecordingOpener(), delegate: delegate)
            try await session.start()
            #expect(delegate.events == [.initialLoad(success: true)])
        }
    }

    @Test func failedInitialLoadIsReportedOnceAndKeptInHistory() async throws {
        try await withLoopbackServer { server in
            let delegate = RecordingDelegate()
            let session = server.session("/redirect-missing", opener: RecordingOpener(), delegate: delegate)
            await #expect {
                try await session.start()
            } throws: { error in
                guard case NavigationError.load(.httpStatus(404, _)) = error else { return false }
                return true
            }
            #expect(delegate.events == [.redirect(server.url("/missing")), .initialLoad(success: false)])
            #expect(await session.currentURL == server.url("/missing"))
            #expect(await session.loadError == .httpStatus(404, url: server.url("/missing")))
            #expect(await session.security == .notSecure)
            #expect(await session.title == nil)
            // The session goes on after a failed page.
            try await session.navigate(to: server.url("/page/b"))
            #expect(await session.canGoBack)
            #expect(delegate.count(.initialLoad(success: false)) == 1)
        }
    }

    @Test func securityIndicatorForHTTPAndFile() async throws {
        try await withLoopbackServer { server in
            let session = server.session("/page/a", opener: RecordingOpener())
            try await session.start()
            #expect(await session.security == .notSecure)

            let temporary = try TemporaryDirectory()
            defer { temporary.remove() }
            let file = URL(fileURLWithPath: temporary.file("local.html"))
            try "<title>Local</title>".write(to: file, atomically: true, encoding: .utf8)
            // The terminal's loader reads web pages only.
            await #expect {
                try await session.navigate(to: file)
            } throws: { error in
                if case NavigationError.load(.unsupportedScheme("file")) = error { return true }
                return false
            }
        }
    }

    @Test func canonicalURLIsSharedOnlyWhenOnTheSameSite() async throws {
        try await withLoopbackServer { server in
            let delegate = RecordingDelegate()
            let session = server.session("/page/a", opener: RecordingOpener(), delegate: delegate)
            try await session.start()
            // /page/a declares /canonical/a on the same host.
            #expect(
                try await session.activityItems()
                    == SharedItems(url: server.url("/canonical/a").absoluteString, title: "Page & A"))
            #expect(delegate.events.contains(.itemsAsked(server.url("/canonical/a"), "Page & A")))

            // /canonical/other declares a canonical URL on localhost: another site.
            try await session.navigate(to: server.url("/canonical/other"))
            #expect(try await session.activityItems().url == server.url("/canonical/other").absoluteString)
        }
    }

    @Test func delegateCanReplaceTheSharedItems() async throws {
        try await withLoopbackServer { server in
            let custom = SharedItems(url: "https://example.com/x", title: "Mine", text: "note")
            let delegate = RecordingDelegate(items: custom)
            let session = server.session("/page/b", opener: RecordingOpener(), delegate: delegate)
            try await session.start()
            #expect(try await session.activityItems() == custom)
            // The sheet acts on the delegate's items, but exclusions are asked for the page.
            #expect(try await session.actionActivities().items == custom)
            #expect(delegate.events.contains(.exclusionsAsked(server.url("/page/b"))))
        }
    }

    @Test func userInfoIsNeverInTheDisplayedHost() async throws {
        try await withLoopbackServer { server in
            let url = URL(string: "http://alice:secret@127.0.0.1:\(server.port)/page/b")!
            let session = NavigationSession(url: url, loader: PageLoader(), opener: RecordingOpener())
            try await session.start()
            let address = try #require(await session.address)
            #expect(address.text == "127.0.0.1:\(server.port)")
            #expect(!address.text.contains("alice") && !address.text.contains("secret"))
            // Nor in what is shared.
            let shared = try await session.activityItems().url
            #expect(shared == "http://127.0.0.1:\(server.port)/page/b")
        }
    }

    @Test func operationsBeforeStartThrowNotStarted() async {
        let session = NavigationSession(
            url: URL(string: "http://127.0.0.1:9/")!, loader: PageLoader(), opener: RecordingOpener())
        await #expect {
            try await session.navigate(to: URL(string: "http://127.0.0.1:9/x")!)
        } throws: { error in
            if case NavigationError.notStarted = error { return true }
            return false
        }
        await #expect {
            _ = try await session.actionActivities()
        } throws: { error in
            if case NavigationError.notStarted = error { return true }
            return false
        }
    }

    @Test func doneFinishesOnceAndEndsEverything() async throws {
        try await withLoopbackServer { server in
            let delegate = RecordingDelegate()
            let opener = RecordingOpener()
            let session = server.session("/page/a", opener: opener, delegate: delegate)
            try await session.start()
            await session.done()
            await session.done()
            #expect(delegate.count(.didFinish) == 1)
            #expect(await session.isFinished)
            await #expect {
                try await session.navigate(to: server.url("/page/b"))
            } throws: { error in
                if case NavigationError.finished = error { return true }
                return false
            }
            await #expect {
                try await session.openInBrowser()
            } throws: { error in
                if case NavigationError.finished = error { return true }
                return false
            }
            #expect(await opener.opened.isEmpty)
            #expect(!delegate.events.contains(.willOpenInBrowser))
        }
    }

    @Test func openInBrowserHandsTheCurrentURLToTheOpenerAndFinishes() async throws {
        try await withLoopbackServer { server in
            let delegate = RecordingDelegate()
            let opener = RecordingOpener()
            let session = server.session("/chain", opener: opener, delegate: delegate)
            try await session.start()
            try await session.openInBrowser()
            #expect(await opener.opened == [server.url("/page/final")])
            #expect(
                delegate.events == [
                    .redirect(server.url("/page/final")), .initialLoad(success: true), .willOpenInBrowser,
                    .didFinish,
                ])
            await session.done()
            #expect(delegate.count(.didFinish) == 1)
        }
    }

    @Test func failingOpenerLeavesTheSessionRunning() async throws {
        try await withLoopbackServer { server in
            let delegate = RecordingDelegate()
            let opener = RecordingOpener(failing: URLOpenerError.exited(program: "xdg-open", status: 3))
            let session = server.session("/page/a", opener: opener, delegate: delegate)
            try await session.start()
            await #expect {
                try await session.openInBrowser()
            } throws: { error in
                if case NavigationError.opener(URLOpenerError.exited(_, 3)) = error { return true }
                return false
            }
            #expect(await !session.isFinished)
            #expect(delegate.count(.didFinish) == 0)
        }
    }

    @Test func linksAreRoutedInAppToTheSystemOrDiscarded() async throws {
        try await withLoopbackServer { server in
            let opener = RecordingOpener()
            let session = server.session("/page/a", opener: opener)
            try await session.start()
            let links = await session.links
            let mail = try #require(links.first { $0.url.scheme == "mailto" })
            #expect(try await session.open(mail.url) == .systemAction)
            #expect(await opener.opened == [mail.url])
            #expect(await session.currentURL == server.url("/page/a"))

            #expect(try await session.open(URL(string: "javascript:alert(1)")!).discardReason != nil)
            #expect(try await session.open(URL(string: "file:///etc/passwd")!).discardReason != nil)
            #expect(await session.currentURL == server.url("/page/a"))

            let pageB = try #require(links.first { $0.text == "Page B" })
            #expect(try await session.open(pageB.url) == .handled)
            #expect(await session.currentURL == server.url("/page/b"))
            #expect(await opener.opened.count == 1)
        }
    }

    @Test func readerViewNeedsTheConfigurationAndAnArticle() async throws {
        try await withLoopbackServer { server in
            let reading = server.session(
                "/article", configuration: NavigationConfiguration(entersReaderIfAvailable: true),
                opener: RecordingOpener())
            try await reading.start()
            #expect(
                await reading.readerView()
                    == "A Story\n\nFirst paragraph of the story.\n\nSecond paragraph, with a line break.")
            try await reading.navigate(to: server.url("/page/b"))
            #expect(await reading.readerView() == nil)
            #expect(await !reading.isReaderAvailable)

            let plain = server.session("/article", opener: RecordingOpener())
            try await plain.start()
            #expect(await plain.isReaderAvailable)
            #expect(await plain.readerView() == nil)
        }
    }

    @Test func newerNavigationSupersedesASlowOne() async throws {
        try await withLoopbackServer { server in
            let session = server.session(
                "/page/a", loader: PageLoader(options: PageLoader.Options(timeout: 30)),
                opener: RecordingOpener())
            try await session.start()
            let slow = Task { try await session.navigate(to: server.url("/slow")) }
            try await waitUntil("the slow load to start") { await session.isLoading }
            try await session.navigate(to: server.url("/page/b"))
            await #expect {
                try await slow.value
            } throws: { error in
                if case NavigationError.load(.cancelled) = error { return true }
                return false
            }
            #expect(await session.backList.map(\.url) == [server.url("/page/a")])
            #expect(await session.currentURL == server.url("/page/b"))
        }
    }
}
