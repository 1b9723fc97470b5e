// The sheet follows the desktop's light/dark choice read from a fake freedesktop portal on the test's bus.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// GTK's own setting says one thing, the portal's `color-scheme` the other: the portal wins.
@Suite(.serialized) struct DesktopColorSchemeTests {
    @Test func portalPreferringDarkDarkensALightSheet() async throws {
        let brightness = try await shownBrightness(gtkSetting: .light, portalAnswer: 1, name: "sheet-portal-dark")
        #expect(brightness < 0.4, "dark: mean brightness \(brightness)")
    }

    @Test func portalPreferringLightLightensADarkSheet() async throws {
        let brightness = try await shownBrightness(gtkSetting: .dark, portalAnswer: 2, name: "sheet-portal-light")
        #expect(brightness > 0.6, "light: mean brightness \(brightness)")
    }

    /// Owns the portal's name on the fixture's bus, shows the sheet and measures its screenshot.
    private func shownBrightness(gtkSetting: SheetFixture.Theme, portalAnswer: UInt32, name: String)
        async throws -> Double
    {
        let fixture = try await SheetFixture(theme: gtkSetting)
        let portal = try fixture.bus.connect()
        defer { portal.close() }
        try portal.export(
            "/org/freedesktop/portal/desktop",
            interfaces: [
                Interface(
                    "org.freedesktop.portal.Settings",
                    methods: [
                        Method(
                            "Read", in: [Argument("namespace", "s"), Argument("key", "s")],
                            out: [Argument("value", "v")],
                            handler: .immediate { call in
                                guard call.body.first?.string == "org.freedesktop.appearance",
                                    call.body.last?.string == "color-scheme"
                                else { throw DBusError.invalidArgs("unknown setting") }
                                // As xdg-desktop-portal answers: the value wrapped in one more variant.
                                return [.variant(.variant(.uint32(portalAnswer)))]
                            })
                    ])
            ])
        #expect(try await portal.requestName("org.freedesktop.portal.Desktop", flags: .doNotQueue) == .primaryOwner)

        let offered = [
            SheetFixture.activity("share.mail", "Mail", "share", icon: "mail-send"),
            SheetFixture.activity("action.copy", "Copy Link", "action", icon: "edit-copy"),
        ]
        let reply = fixture.show(SheetFixture.showBody(activities: offered))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        _ = try await fixture.waitForTree(pid: pid, "the activities") {
            SheetFixture.buttons($0).count == offered.count + 1
        }
        let path = try await fixture.screenshot(window: window, pid: pid, name: name)
        let brightness = try await fixture.meanBrightness(path)
        try await fixture.press("Escape", window: window)
        #expect(try await reply.value.first?.uint32 == Sheet1.Response.cancelled.rawValue)
        return brightness
    }
}
