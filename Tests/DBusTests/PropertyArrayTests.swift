// `a(sv)` property arrays (systemd's StartTransientUnit shape): built, sent over a real bus, read back in order.
import DBus
import Foundation
import TestSupport
import Testing

@Suite struct PropertyArrayTests {
    static let properties: [(name: String, value: Value)] = [
        ("PIDs", .array(element: "u", [.uint32(4242)])),
        ("Description", .string("grüße")),
        ("Description", .string("a repeated name stays")),
        ("Aux", .array(element: "(sa(sv))", [])),
    ]

    @Test func aPropertyArrayIsAnArrayOfStringVariantStructs() {
        let value = Value.propertyArray(Self.properties)
        #expect(value.signature == "a(sv)")
        let read = value.propertyArray
        #expect(read?.map(\.name) == ["PIDs", "Description", "Description", "Aux"])
        #expect(read?.map(\.value) == Self.properties.map(\.value))
        #expect(Value.propertyArray([]).signature == "a(sv)")
        #expect(Value.stringArray(["x"]).propertyArray == nil)
        #expect(
            Value.array(element: "(ss)", [.structure([.string("a"), .string("b")])]).propertyArray == nil)
    }

    @Test func aPropertyArrayAndAnEmptyAuxiliaryListCrossTheBusInOrder() async throws {
        let pair = try await BusPair.start()
        let received = Awaited<[Value]>()
        let method = Method(
            "StartTransientUnit",
            in: [
                Argument("name", "s"), Argument("mode", "s"), Argument("properties", "a(sv)"),
                Argument("aux", "a(sa(sv))"),
            ],
            out: [Argument("job", "o")],
            handler: .immediate { call in
                received.set(call.body)
                return [.objectPath("/job/1")]
            })
        try pair.service.export(
            "/test/Manager", interfaces: [Interface("org.example.Manager", methods: [method])])
        let body: [Value] = [
            .string("app-x-1.scope"), .string("fail"), .propertyArray(Self.properties),
            .array(element: "(sa(sv))", []),
        ]
        let reply = try await pair.call("/test/Manager", "org.example.Manager", "StartTransientUnit", body)
        #expect(reply == [.objectPath("/job/1")])
        let got = try #require(received.wait())
        #expect(got == body)
        #expect(got[2].propertyArray?.map(\.name) == ["PIDs", "Description", "Description", "Aux"])
    }
}
