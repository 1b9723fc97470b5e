// Replies encoded once (EncodedReply): exact round trips to many callers, typed errors for bad values.
@testable import DBus
import Foundation
import Testing
import TestSupport

@Suite struct EncodedReplyTests {
    static let records: Value = .vardictArray(
        (0..<15).map { index in
            [
                "id": .string("org.example.A\(index)"), "name": .string("Ä \(index) ✓"), "icon": .string(""),
                "category": .string("open"), "origin": .string("static"), "n": .uint32(UInt32(index)),
                "nested": .vardict(["list": .stringArray(["p", "q"])]),
            ]
        })

    /// A service whose `Get` answers from one `EncodedReply` (or the value it is given to encode per call).
    func serve(_ pair: BusPair, _ reply: EncodedReply, out: Signature = "aa{sv}") throws {
        try pair.service.export(
            "/test/Encoded",
            interfaces: [
                Interface(
                    "org.example.Encoded",
                    methods: [
                        Method("Get", out: [Argument("records", out)], handler: .encoded { _ in reply }),
                        Method(
                            "Deferred", out: [Argument("records", out)],
                            handler: .deferred { _, responder in
                                DispatchQueue.global().async { responder.reply(encoded: reply) }
                            }),
                    ])
            ])
    }

    @Test func theSameEncodedReplyAnswersManyCallsExactly() async throws {
        let pair = try BusPair()
        let reply = try EncodedReply([Self.records])
        #expect(reply.signature == "aa{sv}")
        #expect(reply.values == [Self.records])
        try serve(pair, reply)
        // A second caller: the copy is addressed to each sender, not to the first one.
        let other = try pair.bus.connect()
        defer { other.close() }
        for _ in 0..<3 {
            #expect(try await pair.call("/test/Encoded", "org.example.Encoded", "Get") == [Self.records])
            #expect(try await pair.call("/test/Encoded", "org.example.Encoded", "Deferred") == [Self.records])
            let fromOther = try await other.call(
                MethodCall(
                    destination: try BusName(pair.service.uniqueName), path: "/test/Encoded",
                    interface: "org.example.Encoded", member: "Get"))
            #expect(fromOther == [Self.records])
        }
    }

    @Test func anEmptyBodyAndSeveralValuesRoundTrip() async throws {
        let pair = try BusPair()
        let values: [Value] = [.string("completed"), .vardict(["k": .int64(-3)]), .objectPath("/a/b")]
        let reply = try EncodedReply(values)
        try serve(pair, reply, out: "sa{sv}o")
        #expect(try await pair.call("/test/Encoded", "org.example.Encoded", "Get") == values)
        #expect(try EncodedReply([]).values == [])
    }

    @Test func aReplyOfTheWrongSignatureFailsTheCall() async throws {
        let pair = try BusPair()
        try serve(pair, try EncodedReply([.string("not records")]))
        let error = await pair.error("/test/Encoded", "org.example.Encoded", "Get")
        #expect(error?.name == DBusError.failedName)
        // The connection lives on.
        #expect(try await pair.call("/test/Encoded", .peer, "Ping") == [])
    }

    @Test func valuesLibdbusWouldAbortOnAreRejectedWithTypedErrors() {
        let bad: [Value] = [
            .array(element: "a{sv}", [.vardict(["ok": .string("x")]), .vardict(["bad": .string("n\0l")])]),
            .array(element: "a{sv}", [.stringDict(["k": "v"])]),
            .dictionary(key: "s", value: "v", [DictEntry(key: .string("k"), value: .string("not a variant"))]),
            .dictionary(key: "v", value: "s", []),
            .structure([]),
            .variant(.string("a\0")),
        ]
        for value in bad {
            #expect(throws: DBusError.self) { _ = try EncodedReply([value]) }
            do {
                _ = try EncodedReply([value])
            } catch {
                #expect(error.name == DBusError.invalidArgsName, "\(value.signature)")
            }
        }
    }
}
