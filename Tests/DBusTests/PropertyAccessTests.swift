// Per-caller objects: a property access hook, unicast PropertiesChanged and unlisted objects.
import DBus
import Testing
import TestSupport

@Suite struct PropertyAccessTests {
    /// An interface whose properties only `allowed` may read or write.
    static func privateInterface(allowed: String, level: Locked<Int32>) -> Interface {
        Interface(
            "org.example.Private1",
            properties: [
                Property("Level", signature: "i", access: .readWrite, get: { .int32(level.value) }) { value, _ in
                    level.value = value.int32 ?? 0
                }
            ],
            propertyAccess: { sender in
                guard sender == allowed else { throw DBusError(name: DBusError.accessDeniedName, message: "not yours") }
            })
    }

    @Test func accessHookRefusesOtherCallersForGetGetAllAndSet() async throws {
        let pair = try await BusPair.start()
        let stranger = try pair.bus.connect()
        defer { stranger.close() }
        let level = Locked<Int32>(1)
        try pair.service.export("/test/Private", interfaces: [Self.privateInterface(allowed: pair.client.uniqueName, level: level)])
        #expect(try await pair.call("/test/Private", .properties, "Get", [.string("org.example.Private1"), .string("Level")]) == [.variant(.int32(1))])

        let service = try BusName(pair.service.uniqueName)
        func strangerError(_ member: MemberName, _ body: [Value]) async -> String? {
            do {
                _ = try await stranger.call(MethodCall(destination: service, path: "/test/Private", interface: .properties, member: member, body: body))
                return nil
            } catch {
                return error.name
            }
        }
        #expect(await strangerError("Get", [.string("org.example.Private1"), .string("Level")]) == DBusError.accessDeniedName)
        #expect(await strangerError("GetAll", [.string("org.example.Private1")]) == DBusError.accessDeniedName)
        #expect(await strangerError("Set", [.string("org.example.Private1"), .string("Level"), .variant(.int32(9))]) == DBusError.accessDeniedName)
        #expect(level.value == 1)
        // The standard interfaces stay answerable: they carry nothing private.
        #expect(await strangerError("GetAll", [.string("org.freedesktop.DBus.Peer")]) == nil)
    }

    @Test func unicastPropertiesChangedReachesOnlyItsDestination() async throws {
        let pair = try await BusPair.start()
        let other = try pair.bus.connect()
        defer { other.close() }
        let level = Locked<Int32>(1)
        try pair.service.export("/test/Private", interfaces: [Self.privateInterface(allowed: pair.client.uniqueName, level: level)])
        let rule = MatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path: "/test/Private")
        let mine = Inbox<IncomingSignal>()
        let theirs = Inbox<IncomingSignal>()
        _ = pair.client.addMatch(rule) { mine.put($0) }
        _ = other.addMatch(rule) { theirs.put($0) }
        try await pair.settle(pair.client)
        try await pair.settle(other)

        level.value = 5
        pair.service.emitPropertiesChanged(
            path: "/test/Private", interface: "org.example.Private1", names: ["Level"],
            destination: try BusName(pair.client.uniqueName))
        let signal = try await mine.next("the unicast PropertiesChanged")
        #expect(signal.destination == pair.client.uniqueName)
        #expect(signal.body[1].vardict == ["Level": .int32(5)])
        // Sent after the signal: once its reply is in, the signal would have been delivered too.
        try await pair.settle(other)
        #expect(theirs.items.isEmpty)
    }

    @Test func unlistedObjectsAnswerButAreNotIntrospectedAsChildren() async throws {
        let pair = try await BusPair.start()
        try pair.service.export("/test/jobs/listed", interfaces: [Interface("org.example.Job1")])
        try pair.service.export("/test/jobs/secret_1234", interfaces: [Interface("org.example.Job1")], listed: false)
        let xml = try await pair.call("/test/jobs", .introspectable, "Introspect").first?.string ?? ""
        #expect(xml.contains("<node name=\"listed\""))
        #expect(!xml.contains("secret_1234"))
        let own = try await pair.call("/test/jobs/secret_1234", .introspectable, "Introspect").first?.string ?? ""
        #expect(own.contains("org.example.Job1"))
        pair.service.unexport("/test/jobs/secret_1234")
        #expect(await pair.error("/test/jobs/secret_1234", .introspectable, "Introspect")?.name == DBusError.unknownObjectName)
    }
}
