// What the window's models do against a hostile page: launches without a click, titles of any length, trigger floods, URLs in the log.
import BrowserWindow
import Foundation
import Testing

@Suite struct LaunchPolicyTests {
    let policy = LinkPolicy()
    let page = URL(string: "https://example.org/")!
    let steam = URL(string: "steam://run/1")!

    @Test func aFrameOrATimerWithoutAGestureLaunchesNothing() {
        // A hidden <iframe src="steam://…"> or a timer setting location: no gesture.
        #expect(
            policy.decide(url: steam, source: page, newWindow: false, userInitiated: false)
                == .dropLaunch(scheme: "steam"))
        // A script's synthetic click is a link click to WebKit, but not the user's gesture.
        #expect(
            policy.decide(url: steam, source: page, newWindow: false, userInitiated: true, userGesture: false)
                == .dropLaunch(scheme: "steam"))
    }

    @Test func aRedirectToAnotherAppLaunchesNothingEvenAfterAClick() {
        #expect(
            policy.decide(
                url: URL(string: "MyApp://x"), source: page, newWindow: false, userInitiated: true,
                userGesture: true, redirect: true) == .dropLaunch(scheme: "myapp"))
    }

    @Test func theUsersClickStillLaunches() {
        #expect(
            policy.decide(url: steam, source: page, newWindow: false, userInitiated: true, userGesture: true)
                == .openExternally(steam))
    }

    @Test func aDiscardedURLIsLoggedWithoutItsPath() {
        let decision = policy.decide(
            url: URL(string: "javascript:alert('secret')"), source: page, newWindow: false,
            userInitiated: true)
        guard case .discard(let reason) = decision else {
            Issue.record("\(decision)")
            return
        }
        #expect(!reason.contains("secret"), "\(reason)")
    }
}

@Suite struct LoggedURLTests {
    @Test func keepsTheSchemeAndTheSiteOnly() {
        #expect(
            LoggedURL("https://user:pw@login.example.co.uk:8443/account?id=7#x").description
                == "https://example.co.uk:8443")
        #expect(LoggedURL("http://127.0.0.1:8000/page/a?q=secret").description == "http://127.0.0.1:8000")
        #expect(LoggedURL("mailto:someone@example.org?subject=secret").description == "mailto:")
        #expect(LoggedURL("not a url").description == "(no URL)")
    }
}

@Suite struct TitleTextTests {
    @Test func theWindowTitleIsCutWithAnEllipsisAtACharacterBoundary() {
        let family = "👨‍👩‍👧‍👦"  // one Character, many scalars
        let long = String(repeating: family, count: 300)
        let cut = TitleText.forWindow(long)
        #expect(cut.count == TitleText.maxWindowTitleCharacters)
        #expect(cut.hasSuffix("…"))
        #expect(cut.dropLast().allSatisfy { $0 == Character(family) })
        #expect(TitleText.forWindow("Short") == "Short")
    }

    @Test func theItemTitleFitsTheBrokersLimitInBytes() {
        let long = String(repeating: "é", count: 3000)  // 6000 bytes
        let cut = TitleText.forItem(long)
        #expect(cut.utf8.count <= TitleText.maxItemTitleBytes)
        #expect(cut.hasSuffix("…"))
        #expect(cut.dropLast().allSatisfy { $0 == "é" })
        let exact = String(repeating: "a", count: TitleText.maxItemTitleBytes)
        #expect(TitleText.forItem(exact) == exact, "a title at the limit is kept whole")
    }
}

@Suite struct TriggerLimiterTests {
    @Test func eachPairIsSentOncePerPageLoad() {
        var limiter = TriggerLimiter()
        let now = ContinuousClock.now
        let first = limiter.admit(url: "t", page: "p", now: now)
        let again = limiter.admit(url: "t", page: "p", now: now + .seconds(5))
        let other = limiter.admit(url: "t2", page: "p", now: now + .seconds(5))
        #expect(first && !again && other)
        limiter.newPage()
        let nextLoad = limiter.admit(url: "t", page: "p", now: now + .seconds(6))
        #expect(nextLoad, "a new load may trigger again")
    }

    @Test func atMostAFewASecond() {
        var limiter = TriggerLimiter(perSecond: 3)
        let now = ContinuousClock.now
        let admitted = (0..<10).filter {
            limiter.admit(url: "t\($0)", page: "p", now: now + .milliseconds($0))
        }
        #expect(admitted == [0, 1, 2])
        let later = limiter.admit(url: "later", page: "p", now: now + .milliseconds(1001))
        #expect(later)
    }

    @Test func aLoadsSetOfPairsIsBounded() {
        var limiter = TriggerLimiter(perSecond: .max)
        let now = ContinuousClock.now
        let admitted = (0..<(TriggerLimiter.maxPairsPerPage + 10)).filter {
            limiter.admit(url: "t\($0)", page: "p", now: now)
        }
        #expect(admitted.count == TriggerLimiter.maxPairsPerPage)
    }
}
