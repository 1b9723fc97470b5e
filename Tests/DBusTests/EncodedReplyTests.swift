// Replies encoded once (EncodedReply): exact round trips to many callers, typed errors for bad values.
import CDBus
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
        let pair = try await BusPair.start()
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
        let pair = try await BusPair.start()
        let values: [Value] = [.string("completed"), .vardict(["k": .int64(-3)]), .objectPath("/a/b")]
        let reply = try EncodedReply(values)
        try serve(pair, reply, out: "sa{sv}o")
        #expect(try await pair.call("/test/Encoded", "org.example.Encoded", "Get") == values)
        #expect(try EncodedReply([]).values == [])
    }

    /// The bodies whose lengths `wireLength` must get right: every kind of value, and padding
    /// before and after each alignment (an 8-aligned value after a byte, an empty array of
    /// structs, which still pads to 8, a variant's signature before its value).
    static let shapes: [[Value]] = [
        [],
        [Self.records],
        [.byte(1)],
        [.byte(1), .int64(-2)],
        [.byte(1), .int16(2), .byte(3), .uint16(4), .boolean(true), .uint64(5)],
        [.byte(1), .array(element: "(ii)", [])],
        [.byte(1), .array(element: "t", [.uint64(1), .uint64(2)]), .byte(3), .array(element: "y", [])],
        [.string(""), .byte(1), .string("ü✓"), .objectPath("/a/b"), .signature("a{sv}"), .double(0.5)],
        [.byte(1), .structure([.byte(2), .variant(.structure([.string("x"), .int32(3)]))])],
        [.variant(.variant(.array(element: "s", [.string("a"), .string("bcd")]))), .variant(.byte(7))],
        [.dictionary(key: "y", value: "ay", [DictEntry(key: .byte(1), value: .array(element: "y", [.byte(2)]))])],
        [.dictionary(key: "t", value: "d", [DictEntry(key: .uint64(1), value: .double(2))]), .int16(-1)],
        [.propertyArray([("a", .int32(1)), ("long name", .stringDict(["k": "v", "x": ""]))])],
        [.vardict(["nested": .vardictArray([["n": .uint32(1)], [:]])]), .signature("")],
        (0..<20).map { .signature(Signature(unchecked: String(repeating: "y", count: $0))) },
    ]

    @Test("The counted size is what dbus_message_marshal gives", arguments: Self.shapes.indices)
    func theCountedSizeIsTheMarshalledSize(_ shape: Int) throws {
        let values = Self.shapes[shape]
        let reply = try EncodedReply(values)
        // The same message as the template, marshalled the way the cache used to size it.
        let raw = try #require(dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN))
        defer { dbus_message_unref(raw) }
        dbus_message_set_no_reply(raw, 1)
        try ValueCoding.append(values, to: raw)
        var data: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        #expect(dbus_message_marshal(raw, &data, &length) != 0)
        dbus_free(data)
        #expect(reply.wireLength == Int(length), "\(reply.signature)")
        #expect(reply.values == values)
    }

    @Test func aReplyOfTheWrongSignatureFailsTheCall() async throws {
        let pair = try await BusPair.start()
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
