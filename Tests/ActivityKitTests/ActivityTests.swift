// Tests of localized names, availability (requirements, programs, candidates) and Explain sentences.

import Foundation
import Testing

@testable import ActivityKit

struct ActivityTests {
    static let localized = activity(
        "l", name: "Copy Link",
        names: [
            "de": "Link kopieren", "de_AT": "Link kopier'n", "pt-BR": "Copiar link", "sr": "Копирај",
            "sr@latin": "Kopiraj",
        ])

    @Test(arguments: [
        ("de_DE.UTF-8", "Link kopieren"), ("de_DE", "Link kopieren"), ("de", "Link kopieren"),
        ("de_DE@euro", "Link kopieren"),
        ("de_AT.UTF-8@euro", "Link kopier'n"), ("de-AT", "Link kopier'n"), ("pt_BR.UTF-8", "Copiar link"),
        ("pt", "Copy Link"),
        ("fr_FR", "Copy Link"), ("sr_RS.UTF-8@latin", "Kopiraj"), ("sr_RS.UTF-8", "Копирај"),
        ("C", "Copy Link"), ("POSIX", "Copy Link"), ("", "Copy Link"),
    ])
    func localizedName(_ locale: String, _ expected: String) {
        #expect(Self.localized.localizedName(for: locale) == expected)
    }

    @Test func nilLocaleUsesName() {
        #expect(Self.localized.localizedName(for: nil) == "Copy Link")
    }

    static func copyLink() throws -> Activity {
        try Manifest.decode(
            Array(
                """
                {"id":"copy","name":"Copy Link","category":"action","requires":{"dbus_names":["org.freedesktop.Notifications"]},
                 "perform":{"candidates":[
                   {"exec":["wl-copy"],"stdin":"{url}","env":["WAYLAND_DISPLAY"]},
                   {"exec":["xclip","-selection","clipboard"],"stdin":"{url}","env":["DISPLAY"]},
                   {"exec":["xsel","-b"],"stdin":"{url}","env":["DISPLAY"]}]}}
                """.utf8), fileName: "copy.json", origin: .builtin)
    }

    @Test func candidatesResolveToFirstRunnable() throws {
        let a = try Self.copyLink()
        let bus: Set<String> = ["org.freedesktop.Notifications"]
        func program(_ env: FixedEnvironment) -> String? {
            guard case .available(.exec(let spec)) = a.availability(in: env) else { return nil }
            return spec.program
        }
        #expect(
            program(
                FixedEnvironment(
                    executables: ["wl-copy", "xclip"], busNames: bus,
                    variables: ["WAYLAND_DISPLAY", "DISPLAY"])) == "wl-copy")
        #expect(
            program(
                FixedEnvironment(executables: ["wl-copy", "xclip"], busNames: bus, variables: ["DISPLAY"]))
                == "xclip")
        #expect(
            program(
                FixedEnvironment(
                    executables: ["xsel"], busNames: bus, variables: ["DISPLAY", "WAYLAND_DISPLAY"]))
                == "xsel")
        let none = a.availability(
            in: FixedEnvironment(executables: ["wl-copy"], busNames: bus, variables: ["DISPLAY"]))
        #expect(
            none
                == .unavailable(
                    reason:
                        "none of its candidates can run: 'wl-copy' needs WAYLAND_DISPLAY to be set, 'xclip' is not on PATH, 'xsel' is not on PATH"
                ))
        let noBus = a.availability(
            in: FixedEnvironment(executables: ["wl-copy"], variables: ["WAYLAND_DISPLAY"]))
        #expect(
            noBus
                == .unavailable(
                    reason:
                        "requires the D-Bus name 'org.freedesktop.Notifications', which has no owner and is not activatable"
                ))
    }

    @Test func execOpenAndDBusNeeds() throws {
        let exec = Activity(
            id: id("e"), name: "E", category: .action, origin: .user,
            perform: .exec(try ExecSpec(argv: [Template("foo"), Template("{url}")])))
        #expect(
            exec.availability(in: FixedEnvironment())
                == .unavailable(reason: "its program 'foo' is not on PATH"))
        #expect(exec.availability(in: FixedEnvironment(executables: ["foo"])).isAvailable)
        #expect(activity("o").availability(in: FixedEnvironment()).isAvailable)
        let dbus = Activity(
            id: id("d"), name: "D", category: .share, origin: .user,
            perform: .dbus(busName: "org.a.B", objectPath: "/"))
        #expect(!dbus.availability(in: FixedEnvironment()).isAvailable)
        #expect(dbus.availability(in: FixedEnvironment(busNames: ["org.a.B"])).isAvailable)
        var needs = activity("n")
        needs.requires = Requirements(executables: ["telegram-desktop"])
        #expect(
            needs.availability(in: FixedEnvironment())
                == .unavailable(reason: "requires the program 'telegram-desktop', which is not on PATH"))
    }

    @Test func explainSentences() throws {
        let yt = activity("yt", hosts: ["*.youtube.com", "youtu.be"])
        let env = FixedEnvironment()
        #expect(
            Explainer.explain(yt, items: items("https://example.org/"), env: env)
                == (false, "host 'example.org' matches none of *.youtube.com, youtu.be"))
        #expect(
            Explainer.explain(activity("any"), items: items("https://example.org/"), env: env)
                == (true, "matches: scheme 'https' is one of http, https; any host; any path"))
        #expect(
            Explainer.explain(activity("any"), items: items("ftp://example.org/"), env: env)
                == (false, "scheme 'ftp' is not one of http, https"))
        var needs = activity("n")
        needs.requires = Requirements(executables: ["telegram-desktop"])
        #expect(
            Explainer.explain(needs, items: items("https://a.example/"), env: env)
                == (
                    false,
                    "the URL matches, but it is unavailable: requires the program 'telegram-desktop', which is not on PATH"
                ))
        let openLink = Activity(
            id: id("open"), name: "Open", category: .action, origin: .builtin,
            match: try MatchRule(schemes: ["javascript", "https"]),
            perform: .open(try OpenSpec(template: Template("{url}"))))
        let js = Explainer.explain(openLink, items: items("javascript:alert(1)"), env: env)
        #expect(!js.applies)
        #expect(js.reason.contains("only http, https and mailto"))
    }

    @Test func idValidation() {
        #expect(caught { try ActivityID("org.example-app_1.Share") } == nil)
        #expect(caught { try ActivityID(String(repeating: "a", count: 255)) } == nil)
        #expect(caught { try ActivityID(String(repeating: "a", count: 256)) } != nil)
        #expect(caught { try ActivityID("") } != nil)
        #expect(caught { try ActivityID("a b") }?.message.contains("\" \"") == true)
        #expect(caught { try ActivityID("café") } != nil)
    }
}
