// The broker's reading of the sheet's answers and of Share's parent_window, without a bus.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Testing

@testable import ActivityBroker

@Suite struct SheetAnswerTests {
    @Test func showRepliesAreReadStrictly() {
        func read(_ values: [Value]) -> String {
            switch SheetClient.response(values) {
            case .success(.chosen(let id, let token)): "chosen \(id) \(token ?? "-")"
            case .success(.cancelled): "cancelled"
            case .success(.failed(let message)): "failed \(message)"
            case .failure(let error): error.name
            }
        }
        let invalid = "org.freedesktop.DBus.Error.InvalidSignature"
        #expect(read([.uint32(0), .vardict(["activity_id": .string("a.b"), "activation_token": .string("t")])]) == "chosen a.b t")
        #expect(read([.uint32(0), .vardict(["activity_id": .string("a.b")])]) == "chosen a.b -")
        #expect(read([.uint32(1), .vardict([:])]) == "cancelled")
        #expect(read([.uint32(2), .vardict(["message": .string("no screen")])]) == "failed no screen")
        #expect(read([.uint32(2), .vardict([:])]) == "failed no reason given")
        #expect(read([.uint32(0), .vardict([:])]) == invalid, "chosen without an activity_id")
        #expect(read([.uint32(0), .vardict(["activity_id": .uint32(3)])]) == invalid)
        #expect(read([.uint32(3), .vardict([:])]) == invalid)
        #expect(read([.string("0"), .vardict([:])]) == invalid)
        #expect(read([.uint32(0)]) == invalid)
        #expect(read([]) == invalid)
    }

    @Test(arguments: ["", "x11:1", "x11:3a00007", "x11:ffffffffffffffff", "wayland:abc-DEF_123", "wayland:" + String(repeating: "h", count: 256)])
    func parentWindowsAccepted(_ parent: String) throws {
        try ShareRequests.checkParentWindow(parent)
    }

    @Test(arguments: [
        "x11:", "x11:0x12", "x11:12g", "x11:" + String(repeating: "f", count: 17), "wayland:", "wayland:a b",
        "wayland:" + String(repeating: "h", count: 257), "wayland:é", "mir:1", "X11:1", " x11:1",
    ])
    func parentWindowsRefused(_ parent: String) {
        #expect(throws: ActivityError.self) { try ShareRequests.checkParentWindow(parent) }
    }

    /// docs/dbus-api.md's Limits: `x11:` with 1–16 of `0-9a-fA-F`, `wayland:` with 1–256 bytes
    /// 0x21–0x7E. The check was by `Character`: `isHexDigit` takes fullwidth digits, and ASCII
    /// control characters are neither whitespace nor non-ASCII.
    @Test(
        "Regression: parent_window took fullwidth hex digits and control characters",
        arguments: [
            "x11:ＦＦ", "x11:１２", "x11:" + String(repeating: "ｆ", count: 8), "x11:1\u{301}", "x11:1\u{0}",
            "wayland:a\u{1}b", "wayland:\u{1B}[2J", "wayland:a\u{7F}", "wayland:a\tb", "wayland:a\nb",
            "wayland:a\r\nb", "wayland:\u{0}", "wayland:a\u{85}", "wayland:ｈ",
        ])
    func parentWindowsRefusedByByte(_ parent: String) {
        #expect(throws: ActivityError.self) { try ShareRequests.checkParentWindow(parent) }
    }

    @Test(
        "parent_window: every printable ASCII byte in a wayland handle, every hex digit in an XID",
        arguments: [
            "x11:0123456789abcdef", "x11:ABCDEF", "x11:aBcD",
            "wayland:" + String(decoding: Array(UInt8(0x21)...UInt8(0x7E)), as: UTF8.self),
        ])
    func parentWindowsAcceptedByByte(_ parent: String) throws {
        try ShareRequests.checkParentWindow(parent)
    }
}
