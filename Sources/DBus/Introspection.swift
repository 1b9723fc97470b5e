// Introspection XML generated from interface tables, so it cannot drift from what is served.

/// Builds the `org.freedesktop.DBus.Introspectable.Introspect` reply.
enum Introspection {
    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    /// The standard interfaces every exported object answers, as tables without handlers.
    static let standard: [Interface] = {
        let never = MethodHandler.immediate { _ in [] }
        return [
            Interface(
                .introspectable,
                methods: [Method("Introspect", out: [Argument("xml_data", "s")], handler: never)]),
            Interface(
                .peer,
                methods: [
                    Method("Ping", handler: never),
                    Method("GetMachineId", out: [Argument("machine_uuid", "s")], handler: never),
                ]),
            Interface(
                .properties,
                methods: [
                    Method(
                        "Get", in: [Argument("interface_name", "s"), Argument("property_name", "s")],
                        out: [Argument("value", "v")], handler: never),
                    Method(
                        "GetAll", in: [Argument("interface_name", "s")], out: [Argument("properties", "a{sv}")],
                        handler: never),
                    Method(
                        "Set",
                        in: [Argument("interface_name", "s"), Argument("property_name", "s"), Argument("value", "v")],
                        handler: never),
                ],
                signals: [
                    SignalSpec(
                        "PropertiesChanged",
                        arguments: [
                            Argument("interface_name", "s"), Argument("changed_properties", "a{sv}"),
                            Argument("invalidated_properties", "as"),
                        ])
                ]),
        ]
    }()

    /// The XML for an object with `interfaces` (nil: a node that only leads to children) and
    /// `children` (relative node names).
    static func xml(interfaces: [Interface]?, children: [String]) -> String {
        var out = header + "<node>\n"
        if let interfaces {
            for interface in standard + interfaces { append(interface, to: &out) }
        } else {
            append(standard[0], to: &out)
        }
        for child in children { out += "  <node name=\"\(escape(child))\"/>\n" }
        out += "</node>\n"
        return out
    }

    private static func append(_ interface: Interface, to out: inout String) {
        out += "  <interface name=\"\(interface.name)\">\n"
        for method in interface.methods {
            out += "    <method name=\"\(method.name)\">\n"
            for argument in method.inArguments { out += argumentXML(argument, direction: "in") }
            for argument in method.outArguments { out += argumentXML(argument, direction: "out") }
            out += "    </method>\n"
        }
        for signal in interface.signals {
            out += "    <signal name=\"\(signal.name)\">\n"
            for argument in signal.arguments { out += argumentXML(argument, direction: nil) }
            out += "    </signal>\n"
        }
        for property in interface.properties {
            let access = property.access == .read ? "read" : "readwrite"
            let head = "    <property name=\"\(property.name)\" type=\"\(escape(property.signature.rawValue))\" access=\"\(access)\""
            if property.emitsChanged {
                out += head + "/>\n"
            } else {
                out += head + ">\n"
                out += "      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"false\"/>\n"
                out += "    </property>\n"
            }
        }
        out += "  </interface>\n"
    }

    private static func argumentXML(_ argument: Argument, direction: String?) -> String {
        var text = "      <arg"
        if !argument.name.isEmpty { text += " name=\"\(escape(argument.name))\"" }
        text += " type=\"\(escape(argument.signature.rawValue))\""
        if let direction { text += " direction=\"\(direction)\"" }
        return text + "/>\n"
    }

    /// Escapes text for an XML attribute value (`'` too).
    static func escape(_ text: String) -> String {
        MarkupEscape.escape(text, apostrophe: true)
    }
}
