// The caller's app id for the sheet: Flatpak's .flatpak-info and systemd app units, as the portals read them.
import Foundation
import Testing

@testable import ActivityBroker

@Suite struct CallerApplicationTests {
    @Test(arguments: [
        ("app-gnome-org.gnome.Nautilus-4242.scope", "org.gnome.Nautilus"),
        ("app-org.gnome.Terminal.service", "org.gnome.Terminal"),
        ("app-gnome-org.gnome.Terminal@e3b0c442.service", "org.gnome.Terminal"),
        ("app-flatpak-org.mozilla.firefox-1234.scope", "org.mozilla.firefox"),
        ("app-kde-org.kde.dolphin\\x2dnext-99.scope", "org.kde.dolphin-next"),
    ])
    func unitNames(unit: String, id: String) {
        #expect(CallerApplication.id(fromUnit: unit) == id)
    }

    @Test(arguments: ["app-.scope", "app-noscope", "app-x.slice", "app-a b-1.scope", "app-onlyrandom.scope"])
    func unitsWithoutAnID(unit: String) {
        #expect(CallerApplication.id(fromUnit: unit) == nil)
    }

    @Test func cgroupTextTakesTheInnermostAppUnit() {
        let unified = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-gnome-org.gnome.Nautilus-4242.scope\n"
        #expect(CallerApplication.id(fromCgroup: unified) == "org.gnome.Nautilus")
        let legacy = "12:pids:/user.slice\n1:name=systemd:/user.slice/user@1000.service/app.slice/app-org.gnome.Maps.service\n0::/\n"
        #expect(CallerApplication.id(fromCgroup: legacy) == "org.gnome.Maps")
        #expect(CallerApplication.id(fromCgroup: "0::/user.slice/session-2.scope\n") == nil)
        #expect(CallerApplication.id(fromCgroup: "") == nil)
    }

    @Test func flatpakInfoNamesTheApplication() {
        let info = "[Application]\nname=org.example.Reader\nruntime=runtime/org.gnome.Platform/x86_64/46\n\n[Instance]\nname=ignored\n"
        #expect(CallerApplication.id(fromFlatpakInfo: info) == "org.example.Reader")
        #expect(CallerApplication.id(fromFlatpakInfo: "[Instance]\nname=org.example.Other\n") == nil)
        #expect(CallerApplication.id(fromFlatpakInfo: "[Application]\nname=bad name;rm\n") == nil)
    }

    @Test func aProcessTreeUnderAnotherRoot() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("proc-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/7/root", withIntermediateDirectories: true)
        try "0::/app.slice/app-org.host.App.service\n".write(toFile: root + "/7/cgroup", atomically: true, encoding: .utf8)
        #expect(CallerApplication.id(ofProcess: 7, procRoot: root) == "org.host.App")
        try "[Application]\nname=org.sandboxed.App\n".write(toFile: root + "/7/root/.flatpak-info", atomically: true, encoding: .utf8)
        #expect(CallerApplication.id(ofProcess: 7, procRoot: root) == "org.sandboxed.App", "Flatpak's own word first")
        #expect(CallerApplication.id(ofProcess: 8, procRoot: root) == "")
    }
}
