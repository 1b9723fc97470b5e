// org.freedesktop.DBus.Properties from the tables: Get, GetAll, Set and PropertiesChanged.
import DBus
import Testing
import TestSupport

@Suite struct PropertiesTests {
    @Test func getAndGetAll() async throws {
        let pair = try await BusPair.start()
        try pair.service.export("/test/Thing", interfaces: [thingInterface()])
        #expect(try await pair.call("/test/Thing", .properties, "Get", [.string("org.example.Thing1"), .string("Version")]) == [.variant(.uint32(3))])
        let all = try await pair.call("/test/Thing", .properties, "GetAll", [.string("org.example.Thing1")])
        #expect(all.first?.vardict == ["Greeting": .string("hello"), "Version": .uint32(3), "Quiet": .stringArray(["a"])])
        let empty = try await pair.call("/test/Thing", .properties, "GetAll", [.string("org.freedesktop.DBus.Peer")])
        #expect(empty.first?.vardict == [:])
        #expect(await pair.error("/test/Thing", .properties, "Get", [.string("org.example.Thing1"), .string("Nope")])?.name == DBusError.unknownPropertyName)
        #expect(await pair.error("/test/Thing", .properties, "Get", [.string("org.example.Nope"), .string("Version")])?.name == DBusError.unknownInterfaceName)
        #expect(await pair.error("/test/Thing", .properties, "GetAll", [.string("org.example.Nope")])?.name == DBusError.unknownInterfaceName)
        #expect(await pair.error("/test/Thing", .properties, "Get", [.string("org.example.Thing1")])?.name == DBusError.invalidArgsName)
    }

    @Test func setChangesTheValueAndEmitsPropertiesChanged() async throws {
        let pair = try await BusPair.start()
        let greeting = Locked("hello")
        try pair.service.export("/test/Thing", interfaces: [thingInterface(greeting: greeting)])
        let changes = Inbox<IncomingSignal>()
        let subscription = pair.client.addMatch(
            MatchRule(sender: pair.service.uniqueName, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path: "/test/Thing")
        ) { changes.put($0) }
        try await pair.settle(pair.client)

        _ = try await pair.call("/test/Thing", .properties, "Set", [.string("org.example.Thing1"), .string("Greeting"), .variant(.string("hi"))])
        #expect(greeting.value == "hi")
        let signal = try await changes.next("PropertiesChanged")
        #expect(signal.body.count == 3)
        #expect(signal.body[0] == .string("org.example.Thing1"))
        #expect(signal.body[1].vardict == ["Greeting": .string("hi")])
        #expect(signal.body[2] == .stringArray([]))
        #expect(try await pair.call("/test/Thing", "org.example.Thing1", "Greet", [.string("x")]) == [.string("hi, x")])

        greeting.value = "hey"
        pair.service.emitPropertiesChanged(path: "/test/Thing", interface: "org.example.Thing1", names: ["Greeting", "Version"])
        let manual = try await changes.next("emitted PropertiesChanged")
        #expect(manual.body[1].vardict == ["Greeting": .string("hey"), "Version": .uint32(3)])
        pair.client.cancel(subscription)
    }

    @Test func setRejectsReadOnlyAndWrongTypes() async throws {
        let pair = try await BusPair.start()
        let greeting = Locked("hello")
        try pair.service.export("/test/Thing", interfaces: [thingInterface(greeting: greeting)])
        let readOnly = await pair.error("/test/Thing", .properties, "Set", [.string("org.example.Thing1"), .string("Version"), .variant(.uint32(4))])
        #expect(readOnly?.name == DBusError.propertyReadOnlyName)
        let wrongType = await pair.error("/test/Thing", .properties, "Set", [.string("org.example.Thing1"), .string("Greeting"), .variant(.int32(4))])
        #expect(wrongType?.name == DBusError.invalidArgsName)
        let unknown = await pair.error("/test/Thing", .properties, "Set", [.string("org.example.Thing1"), .string("Nope"), .variant(.int32(4))])
        #expect(unknown?.name == DBusError.unknownPropertyName)
        #expect(greeting.value == "hello")
    }

    @Test func setterErrorsBecomeReplies() async throws {
        let pair = try await BusPair.start()
        let strict = Interface(
            "org.example.Strict",
            properties: [
                Property("Level", signature: "i", access: .readWrite, get: { .int32(1) }) { value, _ in
                    if (value.int32 ?? 0) < 0 { throw DBusError.invalidArgs("Level must not be negative") }
                }
            ])
        try pair.service.export("/test/Strict", interfaces: [strict])
        let error = await pair.error("/test/Strict", .properties, "Set", [.string("org.example.Strict"), .string("Level"), .variant(.int32(-1))])
        #expect(error == .invalidArgs("Level must not be negative"))
    }
}
