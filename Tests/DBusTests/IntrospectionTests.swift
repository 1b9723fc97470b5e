// Introspection XML: parsed back and compared with the table, and accepted by busctl/gdbus.
import DBus
import Foundation
import Testing
import TestSupport

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What an introspection document says, as plain strings.
final class IntrospectionModel: NSObject, XMLParserDelegate {
    struct Member: Equatable {
        var kind: String
        var name: String
        var args: [String] = []  // "name:type:direction"
    }
    var interfaces: [String: [Member]] = [:]
    var properties: [String: [String]] = [:]  // interface → "name:type:access"
    var children: [String] = []
    private var depth = 0
    private var interface: String?
    private var member: Member?

    static func parse(_ xml: String) -> IntrospectionModel? {
        let model = IntrospectionModel()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = model
        return parser.parse() ? model : nil
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "node":
            depth += 1
            if depth == 2, let name = attributes["name"] { children.append(name) }
        case "interface":
            interface = attributes["name"]
            if let interface { interfaces[interface] = [] }
        case "method", "signal":
            member = Member(kind: element, name: attributes["name"] ?? "")
        case "arg":
            member?.args.append(
                "\(attributes["name"] ?? ""):\(attributes["type"] ?? ""):\(attributes["direction"] ?? "")")
        case "property":
            if let interface {
                properties[interface, default: []].append(
                    "\(attributes["name"] ?? ""):\(attributes["type"] ?? ""):\(attributes["access"] ?? "")")
            }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "node": depth -= 1
        case "interface": interface = nil
        case "method", "signal":
            if let interface, let member { interfaces[interface]?.append(member) }
            member = nil
        default: break
        }
    }
}

@Suite struct IntrospectionTests {
    func introspect(_ pair: BusPair, _ path: ObjectPath) async throws -> IntrospectionModel {
        let reply = try await pair.call(path, .introspectable, "Introspect")
        let xml = try #require(reply.first?.string)
        return try #require(IntrospectionModel.parse(xml), "unparsable XML: \(xml)")
    }

    @Test func xmlMatchesTheTable() async throws {
        let pair = try await BusPair.start()
        let table = thingInterface()
        try pair.service.export("/test/Thing", interfaces: [table])
        let model = try await introspect(pair, "/test/Thing")
        let expected: [IntrospectionModel.Member] =
            table.methods.map { method in
                IntrospectionModel.Member(
                    kind: "method", name: method.name.rawValue,
                    args: method.inArguments.map { "\($0.name):\($0.signature):in" }
                        + method.outArguments.map { "\($0.name):\($0.signature):out" })
            }
            + table.signals.map { signal in
                IntrospectionModel.Member(
                    kind: "signal", name: signal.name.rawValue, args: signal.arguments.map { "\($0.name):\($0.signature):" })
            }
        #expect(model.interfaces["org.example.Thing1"] == expected)
        #expect(model.properties["org.example.Thing1"] == ["Greeting:s:readwrite", "Version:u:read", "Quiet:as:read"])
        for standard in ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Properties"] {
            #expect(model.interfaces[standard] != nil, "\(standard)")
        }
        #expect(model.interfaces["org.freedesktop.DBus.Properties"]?.contains { $0.name == "PropertiesChanged" } == true)
        #expect(model.children.isEmpty)
    }

    @Test func ancestorsAndObjectsListTheirChildren() async throws {
        let pair = try await BusPair.start()
        try pair.service.export("/org/example/A", interfaces: [thingInterface()])
        try pair.service.export("/org/example/A/B", interfaces: [thingInterface()])
        try pair.service.export("/org/example/C/D/E", interfaces: [thingInterface()])
        let root = try await introspect(pair, "/")
        #expect(root.children == ["org"])
        #expect(root.interfaces["org.example.Thing1"] == nil)
        #expect(try await introspect(pair, "/org/example").children == ["A", "C"])
        let a = try await introspect(pair, "/org/example/A")
        #expect(a.children == ["B"])
        #expect(a.interfaces["org.example.Thing1"] != nil)
        #expect(try await introspect(pair, "/org/example/C").children == ["D"])
        #expect(await pair.error("/org/example/Z", .introspectable, "Introspect")?.name == DBusError.unknownObjectName)
    }

    /// An outside implementation (systemd's busctl, else GLib's gdbus) reads our XML.
    @Test func externalToolIntrospectsTheObject() async throws {
        let pair = try await BusPair.start()
        try pair.service.export("/test/Thing", interfaces: [thingInterface()])
        let tools: [(String, [String])] = [
            ("busctl", ["--address=\(pair.bus.address)", "introspect", pair.service.uniqueName, "/test/Thing"]),
            ("gdbus", ["introspect", "--address", pair.bus.address, "--dest", pair.service.uniqueName, "--object-path", "/test/Thing"]),
        ]
        guard let (tool, arguments) = tools.first(where: { tool in
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/\(tool.0)")
            }
        }) else {
            Issue.record("neither busctl nor gdbus is installed")
            return
        }
        let run = try await ChildProcess.run(tool, arguments)
        #expect(run.termination == .exited(0), "\(tool): \(run.standardError)")
        #expect(run.standardOutput.contains("org.example.Thing1"))
        #expect(run.standardOutput.contains("Greet"))
        #expect(run.standardOutput.contains("Greeting"))
    }
}
