// A client sending file descriptors cannot make the broker keep them: its open descriptors stay as they were.
import DBus
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Regression: every `h` a message carried was read as a new descriptor that nothing closed, so
/// any client could run the broker out of descriptors (no spawning, no files, no messages with
/// descriptors) with calls or signals carrying a few each. No broker method takes descriptors:
/// calls carrying them are refused unread; a signal's are closed with its values.
@Suite("Descriptors sent to the broker are not kept")
struct DescriptorFloodTests {
    /// How many descriptors `pid` has open now.
    static func openDescriptors(of pid: pid_t) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    @Test("100 ListActivities and 100 signals with 4 descriptors each: InvalidArgs, and the broker holds no more descriptors than before")
    func descriptorsAreNotKept() async throws {
        let f = try await BrokerFixture(builtin: [
            "open.json": TestManifest.json(id: "org.test.open", perform: #"{"open": "https://share.example/?u={url}"}"#)
        ])
        try await f.settle()
        let before = Self.openDescriptors(of: f.broker.pid)
        let file = UnixFD(owning: open("/dev/null", O_RDONLY | O_CLOEXEC))
        let four = Value.array(element: "h", Array(repeating: .unixFD(file), count: 4))
        for _ in 0..<100 {
            let name = await f.errorName(
                "ListActivities", [.vardict(["url": .string("https://example.org/"), "x": four]), .vardict([:])])
            #expect(name == "org.freedesktop.DBus.Error.InvalidArgs")
            try f.client.emit(
                Signal(
                    path: "/", interface: "org.example.Flood1", member: "Descriptors", body: [four],
                    destination: BrokerFixture.busName))
        }
        // The signals went before this call, so their descriptors are closed by its answer. Under
        // make sanitize's load the count read right after it was once above before + 4 (why was
        // not found): the count is awaited to come down, which 400 kept descriptors never would.
        try await f.settle()
        #expect(before > 0)
        var after = Self.openDescriptors(of: f.broker.pid)
        try? await waitUntil("the broker back to \(before) + 4 descriptors or fewer") {
            after = Self.openDescriptors(of: f.broker.pid)
            return after <= before + 4
        }
        #expect(after <= before + 4, "the broker had \(before) descriptors open, now \(after)")
        #expect(try await f.offered("https://example.org/") == ["org.test.open"], "and it answers on")
    }
}
