// Round trips of every D-Bus type and nesting between two connections over a real bus.
@testable import DBus
import Foundation
import Testing
import TestSupport

@Suite struct ValueRoundTripTests {
    static let samples: [Value] = [
        .byte(0xfe), .boolean(true), .boolean(false), .int16(-12345), .uint16(54321), .int32(-7), .uint32(4_000_000_000),
        .int64(Int64.min), .uint64(UInt64.max), .double(-1.5e300), .string(""), .string("grüße ✓ 🚀"),
        .objectPath("/org/example/a_b/C9"), .signature("a{sv}(iu)"), .signature(""),
        .variant(.int32(5)), .variant(.variant(.string("nested"))),
        .stringArray(["a", "", "c"]), .array(element: "s", []), .array(element: "a{sv}", []),
        .array(element: "(is)", [.structure([.int32(1), .string("one")]), .structure([.int32(2), .string("two")])]),
        .array(element: "ay", [.array(element: "y", [.byte(1), .byte(2)]), .array(element: "y", [])]),
        .structure([.byte(1), .structure([.string("deep"), .array(element: "d", [.double(0.25)])]), .variant(.boolean(true))]),
        .vardict([
            "s": .string("x"), "n": .int32(3),
            "inner": .vardict(["list": .stringArray(["p", "q"]), "v": .variant(.uint64(9))]),
            "paths": .array(element: "o", [.objectPath("/"), .objectPath("/x")]),
        ]),
        .dictionary(key: "i", value: "s", [DictEntry(key: .int32(-1), value: .string("minus")), DictEntry(key: .int32(7), value: .string("seven"))]),
        .dictionary(key: "t", value: "a{ss}", [DictEntry(key: .uint64(1), value: .stringDict(["k": "v"]))]),
        .dictionary(key: "o", value: "v", []),
        .vardictArray([["a": .int16(1)], [:]]),
        .string(String(repeating: "0123456789abcdef", count: 65536)),  // 1 MiB
    ]

    @Test func everyTypeAndNestingSurvivesARoundTrip() async throws {
        let pair = try await BusPair.start()
        let signatures = Self.samples.map(\.signature)
        try pair.service.export("/test/Echo", interfaces: [echoInterface(signatures)])
        for (index, value) in Self.samples.enumerated() {
            let reply = try await pair.call("/test/Echo", "org.example.Echo", try MemberName("Echo\(index)"), [value])
            #expect(reply == [value], "sample \(index) of type \(value.signature)")
        }
    }

    @Test func severalArgumentsKeepTheirOrder() async throws {
        let pair = try await BusPair.start()
        let body: [Value] = [.string("a"), .int32(1), .vardict(["k": .boolean(true)]), .array(element: "u", [])]
        let method = Method(
            "Many", in: body.map { Argument("x", $0.signature) }, out: body.map { Argument("x", $0.signature) },
            handler: .immediate { $0.body })
        try pair.service.export("/test/Many", interfaces: [Interface("org.example.Many", methods: [method])])
        #expect(try await pair.call("/test/Many", "org.example.Many", "Many", body) == body)
    }

    @Test func accessorsReadWhatConstructorsBuild() {
        let dict = Value.vardict(["a": .string("x"), "b": .uint32(2)])
        #expect(dict.signature == "a{sv}")
        #expect(dict.vardict == ["a": .string("x"), "b": .uint32(2)])
        #expect(Value.stringArray(["p"]).stringArray == ["p"])
        #expect(Value.stringDict(["k": "v"]).stringDict == ["k": "v"])
        #expect(Value.variant(.variant(.int64(3))).unwrapped == .int64(3))
        #expect(Value.vardictArray([[:]]).signature == "aa{sv}")
        #expect(Value.int32(1).string == nil)
        #expect(Value.signature(of: [.string("a"), .structure([.byte(1), .boolean(true)])]) == "s(yb)")
    }
}
