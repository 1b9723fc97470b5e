// Tests of manifest decoding: good manifests of each perform kind, and every kind of bad one.

import Foundation
import Testing

@testable import ActivityKit

struct ManifestTests {
    static func decode(_ json: String, file: String = "x.json", origin: ActivityOrigin = .user) throws
        -> Activity
    {
        try Manifest.decode(Array(json.utf8), fileName: file, origin: origin)
    }

    @Test func telegramExampleFromAPI() throws {
        let a = try Self.decode(
            """
            {
              "id": "org.activitybroker.telegram",
              "name": "Telegram",
              "names": { "de": "Telegram DE", "ja": "テレグラム" },
              "icon": "telegram",
              "category": "share",
              "match": { "schemes": ["https", "http"], "hosts": ["*"], "path_prefixes": ["/"] },
              "requires": { "executables": [], "dbus_names": [] },
              "perform": { "open": "https://t.me/share/url?url={url}&text={title}" },
              "priority": 0,
              "future_key": {"anything": true}
            }
            """, file: "telegram.json")
        #expect(a.id.rawValue == "org.activitybroker.telegram")
        #expect(a.localizedName(for: "de_DE.UTF-8") == "Telegram DE")
        #expect(a.category == .share)
        #expect(a.origin == .user)
        #expect(a.icon == "telegram")
        #expect(a.match.schemes == ["https", "http"])
        guard case .open(let spec) = a.perform else {
            Issue.record("not an open activity")
            return
        }
        #expect(
            try spec.url(for: items("https://a.example/", title: "T"))
                == "https://t.me/share/url?url=https%3A%2F%2Fa.example%2F&text=T")
    }

    @Test func defaults() throws {
        let a = try Self.decode(#"{"id":"a","name":"A","category":"action","perform":{"exec":["true"]}}"#)
        #expect(a.icon == "")
        #expect(a.priority == 0)
        #expect(a.names.isEmpty)
        #expect(a.match == MatchRule.httpAny)
        #expect(a.requires == .none)
        #expect(a.owner == nil)
    }

    @Test func execWithStdin() throws {
        let a = try Self.decode(
            #"{"id":"a","name":"A","category":"action","perform":{"exec":["wl-copy","--"],"stdin":"{url}"}}"#)
        guard case .exec(let spec) = a.perform else {
            Issue.record("not exec")
            return
        }
        #expect(spec.arguments(for: items("https://a.example/")) == ["wl-copy", "--"])
        #expect(spec.input(for: items("https://a.example/")) == "https://a.example/")
    }

    @Test func dbusAndCandidates() throws {
        let d = try Self.decode(
            #"{"id":"a","name":"A","category":"share","perform":{"dbus":{"name":"org.example.App","path":"/org/example/App"}}}"#
        )
        #expect(d.perform == .dbus(busName: "org.example.App", objectPath: "/org/example/App"))
        let c = try Self.decode(
            """
            {"id":"org.activitybroker.copy","name":"Copy Link","category":"action","priority":-1,
             "perform":{"candidates":[
               {"exec":["wl-copy"],"stdin":"{url}","env":["WAYLAND_DISPLAY"]},
               {"exec":["xclip","-selection","clipboard"],"stdin":"{url}","env":["DISPLAY"]},
               {"open":"mailto:?body={url}"}]}}
            """)
        #expect(c.priority == -1)
        guard case .candidates(let list) = c.perform else {
            Issue.record("not candidates")
            return
        }
        #expect(list.count == 3)
        #expect(list[0].env == ["WAYLAND_DISPLAY"])
        #expect(list[2].env == [])
    }

    /// (file contents, the field the message must name after "x.json: ").
    static let bad: [(json: String, field: String)] = [
        ("not json", "not valid JSON"),
        ("", "not valid JSON"),
        ("[1,2]", "expected a JSON object"),
        ("\"id\"", "expected a JSON object"),
        (#"{"name":"A","category":"share","perform":{"open":"https://a/{url}"}}"#, "id: is required"),
        (#"{"id":"a b","name":"A","category":"share","perform":{"open":"https://a/{url}"}}"#, "id: "),
        (#"{"id":"a/../b","name":"A","category":"share","perform":{"open":"https://a/{url}"}}"#, "id: "),
        (#"{"id":"","name":"A","category":"share","perform":{"open":"https://a/{url}"}}"#, "id: "),
        (
            #"{"id":"\#(String(repeating: "a", count: 256))","name":"A","category":"share","perform":{"open":"https://a/{url}"}}"#,
            "id: "
        ),
        (
            #"{"id":7,"name":"A","category":"share","perform":{"open":"https://a/{url}"}}"#,
            "id: expected a string"
        ),
        (#"{"id":"a","category":"share","perform":{"open":"https://a/{url}"}}"#, "name: is required"),
        (
            #"{"id":"a","name":["A"],"category":"share","perform":{"open":"https://a/{url}"}}"#,
            "name: expected a string"
        ),
        (#"{"id":"a","name":" ","category":"share","perform":{"open":"https://a/{url}"}}"#, "name: "),
        (
            #"{"id":"a","name":"A","names":{"de":5},"category":"share","perform":{"open":"https://a/{url}"}}"#,
            "names.de: "
        ),
        (
            #"{"id":"a","name":"A","names":["de"],"category":"share","perform":{"open":"https://a/{url}"}}"#,
            "names: "
        ),
        (
            #"{"id":"a","name":"A","icon":true,"category":"share","perform":{"open":"https://a/{url}"}}"#,
            "icon: "
        ),
        (#"{"id":"a","name":"A","perform":{"open":"https://a/{url}"}}"#, "category: is required"),
        (#"{"id":"a","name":"A","category":"social","perform":{"open":"https://a/{url}"}}"#, "category: "),
        (#"{"id":"a","name":"A","category":"share"}"#, "perform: is required"),
        (#"{"id":"a","name":"A","category":"share","perform":"https://a"}"#, "perform: expected an object"),
        (
            #"{"id":"a","name":"A","category":"share","perform":{}}"#,
            "perform: expected exactly one of exec, open, dbus, candidates"
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"exec":["x"],"open":"https://a/"}}"#,
            "perform: expected exactly one of exec, open, dbus, candidates"
        ),
        (#"{"id":"a","name":"A","category":"share","perform":{"exec":[]}}"#, "perform.exec: "),
        (#"{"id":"a","name":"A","category":"share","perform":{"exec":"ls"}}"#, "perform.exec: "),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"exec":["ls",3]}}"#,
            "perform.exec[1]: expected a string"
        ),
        (#"{"id":"a","name":"A","category":"share","perform":{"exec":["{url}"]}}"#, "perform.exec[0]: "),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"exec":["ls","{nope}"]}}"#,
            "perform.exec[1]: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"exec":["ls"],"stdin":"{url"}}"#,
            "perform.stdin: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"open":"https://a/","stdin":"x"}}"#,
            "perform.stdin: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"open":"javascript:{url}"}}"#,
            "perform.open: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"open":"https://a/?{bad}"}}"#,
            "perform.open: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"exec":["ls"],"shell":true}}"#,
            "perform.shell: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"dbus":{"name":"org","path":"/a"}}}"#,
            "perform.dbus.name: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"dbus":{"name":"org.1x.A","path":"/a"}}}"#,
            "perform.dbus.name: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"dbus":{"name":":1.5","path":"/a"}}}"#,
            "perform.dbus.name: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"dbus":{"name":"org.a.B","path":"/a/"}}}"#,
            "perform.dbus.path: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"dbus":{"name":"org.a.B","path":"a"}}}"#,
            "perform.dbus.path: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"dbus":{"name":"org.a.B"}}}"#,
            "perform.dbus.path: is required"
        ),
        (#"{"id":"a","name":"A","category":"share","perform":{"candidates":[]}}"#, "perform.candidates: "),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"candidates":[{"dbus":{}}]}}"#,
            "perform.candidates[0]: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"candidates":[{"exec":["a"]},{"exec":["b"],"env":["1X"]}]}}"#,
            "perform.candidates[1].env[0]: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"candidates":[{"exec":["a"],"env":"DISPLAY"}]}}"#,
            "perform.candidates[0].env: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","match":[],"perform":{"exec":["a"]}}"#,
            "match: expected an object"
        ),
        (
            #"{"id":"a","name":"A","category":"share","match":{"hosts":["ok.example","a.*.org","x"]},"perform":{"exec":["a"]}}"#,
            "match.hosts[1]: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","match":{"hosts":["a", 1]},"perform":{"exec":["a"]}}"#,
            "match.hosts[1]: expected a string"
        ),
        (
            #"{"id":"a","name":"A","category":"share","match":{"hosts":[]},"perform":{"exec":["a"]}}"#,
            "match.hosts: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","match":{"schemes":["ht tp"]},"perform":{"exec":["a"]}}"#,
            "match.schemes[0]: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","match":{"path_prefixes":["x"]},"perform":{"exec":["a"]}}"#,
            "match.path_prefixes[0]: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","match":{"ports":[80]},"perform":{"exec":["a"]}}"#,
            "match.ports: unknown key"
        ),
        (
            #"{"id":"a","name":"A","category":"share","requires":{"executables":"ls"},"perform":{"exec":["a"]}}"#,
            "requires.executables: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","requires":{"dbus_names":["bad"]},"perform":{"exec":["a"]}}"#,
            "requires.dbus_names[0]: "
        ),
        (
            #"{"id":"a","name":"A","category":"share","requires":{"programs":["ls"]},"perform":{"exec":["a"]}}"#,
            "requires.programs: unknown key"
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"exec":["a"]},"priority":1.5}"#,
            "priority: expected an integer"
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"exec":["a"]},"priority":"1"}"#,
            "priority: expected an integer"
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"exec":["a"]},"priority":true}"#,
            "priority: expected an integer"
        ),
        (
            #"{"id":"a","name":"A","category":"share","perform":{"exec":["a"]},"priority":1e30}"#,
            "priority: expected an integer"
        ),
    ]

    @Test(arguments: bad)
    func rejects(_ json: String, _ field: String) {
        let e = caught { try Self.decode(json, file: "x.json") }
        guard case .invalidArgument(let m)? = e else {
            Issue.record("accepted or wrong error: \(String(describing: e))")
            return
        }
        #expect(m.hasPrefix("x.json: " + field), "message: \(m)")
    }

    @Test func telegramMessageExactly() {
        let e = caught {
            try Self.decode(#"{"id":"t","name":"T","category":"share","perform":{}}"#, file: "telegram.json")
        }
        #expect(
            e
                == .invalidArgument(
                    "telegram.json: perform: expected exactly one of exec, open, dbus, candidates"))
    }

    @Test func masks() {
        #expect(Manifest.isMask([]))
        #expect(Manifest.isMask(Array(" \n\t".utf8)))
        #expect(!Manifest.isMask(Array("{}".utf8)))
    }

    @Test(arguments: [
        ("org.example.App", false, true), ("org", false, false), (":1.42", false, false),
        (":1.42", true, true),
        ("org.1bad.x", false, false), ("org..x", false, false), ("org.ex-ample._x", false, true),
        (".org.x", false, false),
    ])
    func busNames(_ name: String, _ unique: Bool, _ valid: Bool) {
        #expect(DBusSyntax.isValidBusName(name, allowUnique: unique) == valid)
    }

    @Test(arguments: [
        ("/", true), ("/a/b_c/D9", true), ("", false), ("a", false), ("/a/", false), ("//a", false),
        ("/a-b", false),
    ])
    func objectPaths(_ path: String, _ valid: Bool) {
        #expect(DBusSyntax.isValidObjectPath(path) == valid)
    }
}

extension ManifestTests {
    @Test func messagesNeverCarryControlCharacters() {
        let e = caught {
            try Self.decode(
                #"{"id":"a\nb","name":"A","category":"share\u001b[31m","perform":{"exec":["a"]}}"#,
                file: "x.json")
        }
        #expect(e?.message.hasPrefix("x.json: id: ") == true)
        #expect(e?.message.contains("\n") == false)
        let c = caught {
            try Self.decode(
                #"{"id":"a","name":"A","category":"share\u001b[31m","perform":{"exec":["a"]}}"#,
                file: "x.json")
        }
        #expect(c?.message.contains("\u{1b}") == false)
        #expect(c?.message.contains("U+001B") == true)
    }
}
