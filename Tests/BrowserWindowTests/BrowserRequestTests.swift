// Open's arguments and options: the allow-list, the types, the URL and parent window checks.
@testable import ActivityBrokerClient
import ActivityBrokerInterface
import BrowserWindow
import DBus
import Foundation
import GtkSupport
import Navigation
import Testing

private func body(url: String = "https://example.org/", parent: String = "", options: [String: Value] = [:])
    -> [Value]
{
    [
        .objectPath("/org/activitybroker/Broker1/session/1"), .string("org.example.App"), .string(parent),
        .string(url), .vardict(options),
    ]
}

@Suite struct BrowserRequestTests {
    @Test func defaultsAreSafariViewControllers() throws {
        let request = try BrowserRequest(body: body())
        #expect(request.options == BrowserOptions())
        #expect(request.options.dismissButtonStyle == .done)
        #expect(request.options.barCollapsingEnabled)
        #expect(request.parentWindow == .none)
    }

    @Test func everyOptionDecodes() throws {
        let options = try BrowserOptions([
            "dismiss_button_style": .string("cancel"), "control_tint": .string("#FF8800"),
            "bar_tint": .string("#000000"),
            "enters_reader_if_available": .boolean(true), "bar_collapsing_enabled": .boolean(false),
            "exclude": .stringArray(["a.b", "category:share"]), "activation_token": .string("tok"),
            "event_attribution": .vardict([:]),
        ])
        #expect(options.dismissButtonStyle == .cancel)
        #expect(options.controlTint == TintColor(red: 255, green: 136, blue: 0))
        #expect(options.barTint?.hex == "#000000")
        #expect(options.entersReaderIfAvailable)
        #expect(!options.barCollapsingEnabled)
        #expect(options.exclude == ["a.b", "category:share"])
        #expect(options.activationToken == "tok")
    }

    @Test(arguments: [
        ("colour", Value.string("#000000")),
        ("dismiss_button_style", Value.string("back")),
        ("dismiss_button_style", Value.uint32(1)),
        ("control_tint", Value.string("red")),
        ("bar_tint", Value.string("#12345")),
        ("exclude", Value.string("a.b")),
        ("enters_reader_if_available", Value.string("yes")),
    ])
    func badOptionsAreInvalidArgs(key: String, value: Value) {
        #expect(throws: DBusError.self) { try BrowserOptions([key: value]) }
        do {
            _ = try BrowserOptions([key: value])
        } catch {
            #expect(error.name == DBusError.invalidArgsName)
            #expect(error.message.contains(key))
        }
    }

    @Test(arguments: [
        "file:///etc/passwd", "mailto:a@b.c", "javascript:alert(1)", "https://", "example.org", "",
    ])
    func onlyHTTPAndHTTPSURLsOpen(url: String) {
        #expect(throws: DBusError.self) { try BrowserRequest(body: body(url: url)) }
    }

    @Test func parentWindowsFollowThePortalConvention() throws {
        #expect(ParentWindow("") == ParentWindow.none)
        #expect(ParentWindow("x11:1a2b") == .x11(0x1a2b))
        #expect(ParentWindow("x11:0x10") == .x11(0x10))
        #expect(ParentWindow("wayland:abc") == .wayland("abc"))
        #expect(ParentWindow("x11:zz") == nil)
        #expect(ParentWindow("x11:0") == nil)
        #expect(ParentWindow("mir:1") == nil)
        #expect(throws: DBusError.self) { try BrowserRequest(body: body(parent: "mir:1")) }
        #expect(try BrowserRequest(body: body(parent: "x11:0x10")).parentWindow == .x11(0x10))
    }

    @Test func clickActivationIsReportedForEveryOpenWithAToken() throws {
        #expect(try BrowserOptions(["activation_token": .string("t")]).reportsClickActivation)
        #expect(!(try BrowserOptions(["event_attribution": .vardict([:])])).reportsClickActivation)
        #expect(!(try BrowserOptions(["activation_token": .string("")])).reportsClickActivation)
        #expect(!(try BrowserOptions([:])).reportsClickActivation)
    }

    @Test func onlyRedirectsThatLookLikeTriggersAreReported() {
        let page = "http://127.0.0.1:8000/shop"
        let path = AttributionRedirect.triggerPath
        let trigger = "https://source.example" + path + "05"
        #expect(AttributionRedirect(target: trigger, page: page)?.url == trigger)
        #expect(AttributionRedirect(target: trigger, page: page)?.page == page)
        #expect(AttributionRedirect(target: trigger + "/12", page: page) != nil)
        #expect(AttributionRedirect(target: "http://source.example" + path + "05", page: page) == nil)
        #expect(AttributionRedirect(target: "https://source.example/page/b", page: page) == nil)
        #expect(AttributionRedirect(target: "https://source.example/x" + path + "05", page: page) == nil)
        #expect(AttributionRedirect(target: "not a url", page: page) == nil)
    }

    @Test func theWrongSignatureIsInvalidArgs() {
        #expect(throws: DBusError.self) { try BrowserRequest(body: [.string("x")]) }
    }

    @Test func eventsCarryTheirDetails() {
        #expect(BrowserEvent.initialLoadCompleted(success: false).details == ["success": .boolean(false)])
        #expect(
            BrowserEvent.initialLoadRedirected(url: "https://a.b/").details == [
                "url": .string("https://a.b/")
            ])
        #expect(BrowserEvent.finished.details.isEmpty)
        #expect(BrowserEvent.willOpenInBrowser.name == "WillOpenInBrowser")
        #expect(BrowserEvent.clickActivated(true).name == "ClickActivated")
    }

    @Test func argumentsParse() throws {
        let arguments = try BrowserArguments([
            "--bus", "unix:path=/x", "--idle-exit", "0", "--opener", "/bin/true",
        ])
        #expect(arguments.bus == "unix:path=/x")
        #expect(arguments.idleExit == nil)
        #expect(arguments.opener == ["/bin/true"])
        #expect(throws: BrowserArguments.UsageError.self) { try BrowserArguments(["--what"]) }
    }
}
