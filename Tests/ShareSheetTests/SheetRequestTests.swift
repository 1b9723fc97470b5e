// Decoding Show's arguments: what is required, what is checked, what is ignored.
import DBus
import Testing

@testable import ShareSheet

private func activity(_ id: String, _ name: String, _ category: String? = nil) -> [String: Value] {
    var record: [String: Value] = ["id": .string(id), "name": .string(name)]
    if let category { record["category"] = .string(category) }
    return record
}

private func body(
    parent: String = "", items: [String: Value] = ["url": .string("https://example.org/")],
    activities: [[String: Value]] = [activity("a", "A", "share")], options: [String: Value] = [:]
) -> [Value] {
    [
        .objectPath("/org/activitybroker/Broker1/sheet/1"), .string("org.example.App"), .string(parent),
        .vardict(items), .vardictArray(activities), .vardict(options),
    ]
}

@Suite struct SheetRequestTests {
    @Test func aCompleteRequestDecodes() throws {
        let request = try SheetRequest(
            body: body(
                parent: "x11:1c00003",
                items: ["url": .string("https://example.org/"), "title": .string("T"), "future": .int32(1)],
                activities: [activity("a", "A", "share"), activity("b", "B")],
                options: [
                    "locale": .string("de_DE"), "activation_token": .string("tok"), "other": .boolean(true),
                ]))
        #expect(request.handle.rawValue == "/org/activitybroker/Broker1/sheet/1")
        #expect(request.appID == "org.example.App")
        #expect(request.parentWindow == .x11(0x1c00003))
        #expect(request.title == "T")
        #expect(request.activities.map(\.category) == [.share, .action], "no category is an action")
        #expect(request.locale == "de_DE")
        #expect(request.activationToken == "tok")
    }

    @Test(arguments: [
        body(items: [:]),
        body(items: ["url": .int32(1)]),
        body(items: ["url": .string("https://example.org/"), "title": .int32(1)]),
        body(activities: []),
        body(activities: [["name": .string("A")]]),
        body(activities: [activity("a", "")]),
        body(activities: [activity("a", "A", "poke")]),
        body(activities: [activity("a", "A"), activity("a", "B")]),
        body(options: ["locale": .int32(1)]),
        body(parent: "x11:zz"),
        body(parent: "quartz:1"),
    ])
    func badArgumentsAreInvalidArgs(_ arguments: [Value]) {
        #expect(throws: DBusError.self) { try SheetRequest(body: arguments) }
        do {
            _ = try SheetRequest(body: arguments)
        } catch {
            #expect(error.name == DBusError.invalidArgsName)
        }
    }

    @Test func parentWindowsFollowThePortalConvention() throws {
        #expect(try SheetRequest.parentWindow("") == .none)
        #expect(try SheetRequest.parentWindow("x11:0x2a") == .x11(42))
        #expect(try SheetRequest.parentWindow("wayland:abc") == .wayland("abc"))
    }
}
