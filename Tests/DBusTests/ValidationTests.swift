// Invalid names, strings and values are rejected with typed errors before libdbus sees them.
@testable import DBus
import Testing
import TestSupport

@Suite struct ValidationTests {
    func invalidArgs(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch {
            return (error as? DBusError)?.name == DBusError.invalidArgsName
        }
    }

    /// A literal passed as `T("…")` is a literal coercion (the trapping literal initializer);
    /// routing it through a function makes the throwing initializer run.
    func text(_ string: String) -> String { string }

    @Test(arguments: ["", "a", "/a/", "//", "/a//b", "/a-b", "/a b", "/ä", "/a\0b"])
    func invalidObjectPaths(_ text: String) {
        #expect(invalidArgs { _ = try ObjectPath(text) })
    }

    @Test func validObjectPaths() throws {
        #expect(try ObjectPath(text("/")).isRoot)
        #expect(try ObjectPath(text("/org/example/A_1")).rawValue == "/org/example/A_1")
        #expect(try ObjectPath(text("/")).appending("x") == "/x")
        #expect(try ObjectPath(text("/x")).appending("y_2") == "/x/y_2")
        #expect(invalidArgs { _ = try ObjectPath(text("/x")).appending("a-b") })
        #expect(ObjectPath("/x/y").parent == "/x")
        #expect(ObjectPath("/x").parent == "/")
    }

    @Test func otherNames() {
        #expect(invalidArgs { _ = try BusName(text("")) })
        #expect(invalidArgs { _ = try BusName(text("no_dots")) })
        #expect(invalidArgs { _ = try BusName(text("org..example")) })
        #expect(invalidArgs { _ = try BusName(text("org.exa\0mple")) })
        #expect((try? BusName(text(":1.42")))?.isUnique == true)
        #expect((try? BusName(text("org.example.Service"))) != nil)
        #expect(invalidArgs { _ = try InterfaceName(text("Single")) })
        #expect(invalidArgs { _ = try InterfaceName(text("org.1example")) })
        #expect((try? InterfaceName(text("org.example.Thing1"))) != nil)
        #expect(invalidArgs { _ = try MemberName(text("1x")) })
        #expect(invalidArgs { _ = try MemberName(text("a.b")) })
        #expect(invalidArgs { _ = try MemberName(text("")) })
        #expect((try? MemberName(text("Perform"))) != nil)
        #expect(invalidArgs { _ = try ErrorName(text("Failed")) })
        #expect((try? ErrorName(text("org.example.Error.Bad"))) != nil)
    }

    @Test(arguments: ["a", "(", "(i", "a{vs}", "{ss}", "()", "z", "a{s}", String(repeating: "a", count: 40) + "i"])
    func invalidSignatures(_ text: String) {
        #expect(invalidArgs { _ = try Signature(text) })
    }

    @Test func signatureShapes() throws {
        #expect(try Signature(text("a{sv}")).isSingleCompleteType)
        #expect(try !Signature(text("ss")).isSingleCompleteType)
        #expect(Signature.empty.rawValue == "")
        #expect(!Signature.empty.isSingleCompleteType)
    }

    @Test func invalidUTF8IsRejected() {
        #expect(invalidArgs { _ = try Value.string(validatingUTF8: [0x61, 0xff, 0xfe]) })
        #expect(invalidArgs { _ = try Value.string(validatingUTF8: [0xc3]) })
        #expect(invalidArgs { _ = try Value.string(validatingUTF8: [0x61, 0x00, 0x62]) })
        #expect((try? Value.string(validatingUTF8: Array("grüße".utf8))) == .string("grüße"))
    }

    /// Values libdbus would abort on fail the call with InvalidArgs, and the connection lives on.
    @Test func inconsistentValuesFailTheCallNotTheProcess() async throws {
        let pair = try await BusPair.start()
        try pair.service.export("/test/Echo", interfaces: [echoInterface(["v"])])
        var deep: Value = .int32(1)
        for _ in 0..<40 { deep = .array(element: deep.signature, [deep]) }
        let bad: [Value] = [
            .array(element: "s", [.int32(1)]),
            .structure([]),
            .dictionary(key: "v", value: "s", []),
            .dictionary(key: "s", value: "s", [DictEntry(key: .string("k"), value: .int32(1))]),
            .string("nul\0inside"),
            .variant(.string("a\0")),
            .array(element: "ss", []),
            deep,
            // A bad item after good ones: the half-written array is abandoned.
            .array(element: "a{sv}", [.vardict(["ok": .string("x")]), .vardict(["bad": .string("n\0l")])]),
            .array(element: "a{sv}", [.vardict(["ok": .string("x")]), .stringDict(["k": "v"])]),
            .dictionary(key: "s", value: "v", [DictEntry(key: .string("k"), value: .string("not a variant"))]),
            .dictionary(key: "ss", value: "v", []),
            .dictionary(key: "s", value: "v", [DictEntry(key: .int32(1), value: .variant(.int32(1)))]),
            .variant(deep),
            .variant(.dictionary(key: "s", value: "s", [DictEntry(key: .string("k"), value: .int32(1))])),
        ]
        for value in bad {
            await #expect(throws: DBusError.self) {
                _ = try await pair.call("/test/Echo", "org.example.Echo", "Echo0", [.variant(value)])
            }
            let error = await pair.error("/test/Echo", "org.example.Echo", "Echo0", [.variant(value)])
            #expect(error?.name == DBusError.invalidArgsName, "\(value.signature)")
        }
        #expect(throws: DBusError.self) {
            try pair.service.emit(Signal(path: "/x", interface: "org.example.S", member: "Bad", body: [.structure([])]))
        }
        #expect(try await pair.call("/test/Echo", "org.example.Echo", "Echo0", [.variant(.string("fine"))]) == [.variant(.string("fine"))])
    }

    @Test func connectingToNothingThrows() {
        #expect(throws: DBusError.self) { _ = try Connection(bus: .address("unix:path=/nonexistent/socket")) }
        #expect(throws: DBusError.self) { _ = try Connection(bus: .address("not an address")) }
    }
}
