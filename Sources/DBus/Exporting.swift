// Exported objects: the path table and the dispatch of incoming method calls to it.
import CDBus

extension Connection {
    /// Exports `interfaces` at `path`. Introspectable, Peer and Properties are answered
    /// automatically from the tables. Throws `InvalidArgs` if the path is already exported or
    /// an interface appears twice.
    ///
    /// `listed: false` leaves the object out of its ancestors' introspection (`<node>`
    /// children): for per-caller objects whose paths are meant to be known only to the caller
    /// that was given them. It still answers at its path.
    public func export(_ path: ObjectPath, interfaces: [Interface], listed: Bool = true) throws(DBusError) {
        var names = Set<InterfaceName>()
        for interface in interfaces where !names.insert(interface.name).inserted {
            throw .invalidArgs("interface \(interface.name) given twice for \(path)")
        }
        try sync { () throws(DBusError) in
            guard objects[path] == nil else { throw .invalidArgs("object \(path) is already exported") }
            objects[path] = interfaces
            if !listed { unlistedObjects.insert(path) }
        }
    }

    /// Stops answering at `path` (no-op when nothing is exported there).
    public func unexport(_ path: ObjectPath) {
        syncValue {
            _ = objects.removeValue(forKey: path)
            unlistedObjects.remove(path)
        }
    }

    /// Answers calls to the paths directly below `parent` that are not exported themselves with
    /// the interfaces `resolve` gives for each (nil: no object there, `UnknownObject`), built when
    /// a call comes: for many short-lived objects (jobs) that should cost no table each while
    /// they exist. They are left out of introspection, like `export(listed: false)`. `resolve`
    /// runs on the loop. Throws `InvalidArgs` if `parent` already has a resolver.
    public func exportChildren(of parent: ObjectPath, resolve: @escaping (ObjectPath) -> [Interface]?) throws(DBusError) {
        try sync { () throws(DBusError) in
            guard childResolvers[parent] == nil else { throw .invalidArgs("children of \(parent) are already exported") }
            childResolvers[parent] = resolve
        }
    }

    /// The interfaces at `path`: exported there, or given by its parent's resolver. On the loop.
    func interfaces(at path: ObjectPath) -> [Interface]? {
        if let table = objects[path] { return table }
        guard !childResolvers.isEmpty, let parent = path.parent, let resolve = childResolvers[parent] else { return nil }
        return resolve(path)
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for `names` with the current
    /// getter values. Unknown names are logged and skipped.
    ///
    /// `destination` nil broadcasts (to every connection with a matching rule); a unique name
    /// unicasts it to that connection alone, for properties only one peer may read.
    public func emitPropertiesChanged(
        path: ObjectPath, interface: InterfaceName, names: [String], destination: BusName? = nil
    ) {
        perform {
            guard let table = self.interfaces(at: path)?.first(where: { $0.name == interface }) else {
                log("PropertiesChanged for \(interface) at \(path), which is not exported")
                return
            }
            var changed: [DictEntry] = []
            for name in names {
                guard let property = table.propertiesByName[name] else {
                    log("PropertiesChanged for unknown property \(interface).\(name)")
                    continue
                }
                let value = property.get()
                guard value.signature == property.signature else {
                    log("property \(interface).\(name) has type \(value.signature), expected \(property.signature)")
                    continue
                }
                changed.append(DictEntry(key: .string(name), value: .variant(value)))
            }
            self.sendPropertiesChanged(path: path, interface: interface, changed, destination: destination)
        }
    }

    /// Emits `PropertiesChanged` with `values` as given (name, value), without reading the
    /// object's getters: for an owner that has the new values at hand. Like the other, nil
    /// `destination` broadcasts and a unique name unicasts.
    public func emitPropertiesChanged(
        path: ObjectPath, interface: InterfaceName, values: KeyValuePairs<String, Value>, destination: BusName? = nil
    ) {
        let changed = values.map { DictEntry(key: .string($0.key), value: .variant($0.value)) }
        perform { self.sendPropertiesChanged(path: path, interface: interface, changed, destination: destination) }
    }

    private func sendPropertiesChanged(
        path: ObjectPath, interface: InterfaceName, _ changed: [DictEntry], destination: BusName?
    ) {
        let signal = Signal(
            path: path, interface: .properties, member: "PropertiesChanged",
            body: [.string(interface.rawValue), .dictionary(key: "s", value: "v", changed), .stringArray([])],
            destination: destination)
        do {
            sendOneWay(try Message.signal(signal))
        } catch {
            log("PropertiesChanged could not be encoded: \(error)")
        }
    }

    // MARK: Dispatch (on the loop)

    private func replyError(_ call: Message, _ error: DBusError) {
        guard !call.noReplyExpected, let reply = Message.errorReply(to: ReplyAddress(call), error: error) else { return }
        sendOneWay(reply)
    }

    private func replyValues(_ call: Message, _ values: [Value]) {
        guard !call.noReplyExpected else { return }
        do {
            sendOneWay(try Message.methodReturn(to: ReplyAddress(call), values: values))
        } catch {
            replyError(call, .failed("reply could not be encoded: \(error.message)"))
        }
    }

    /// Answers a method call addressed to us.
    func handleMethodCall(_ call: Message) {
        let path = ObjectPath(unchecked: call.path ?? "/")
        let member = MemberName(unchecked: call.member ?? "")
        let interfaceName = call.interface.map { InterfaceName(unchecked: $0) }
        let table = interfaces(at: path)

        if member.rawValue == "Introspect", interfaceName == .introspectable || (interfaceName == nil && table?.contains { $0.methodsByName[member] != nil } != true) {
            let children = childNodes(of: path)
            guard table != nil || !children.isEmpty else {
                return replyError(call, .unknownObject("no object at \(path)"))
            }
            guard call.signature.isEmpty else {
                return replyError(call, .invalidArgs("Introspect takes no arguments, got '\(call.signature)'"))
            }
            return replyValues(call, [.string(Introspection.xml(interfaces: table, children: children))])
        }
        guard let table else { return replyError(call, .unknownObject("no object at \(path)")) }

        let interface: Interface
        let method: Method
        switch interfaceName {
        case .properties?:
            return handleProperties(call, member: member, table: table, path: path)
        case .peer?:
            return handlePeer(call, member: member)
        case .introspectable?:
            return replyError(call, .unknownMethod("no method \(member) in \(InterfaceName.introspectable)"))
        case let name?:
            guard let found = table.first(where: { $0.name == name }) else {
                return replyError(call, .unknownInterface("no interface \(name) at \(path)"))
            }
            guard let found2 = found.methodsByName[member] else {
                return replyError(call, .unknownMethod("no method \(member) in \(name)"))
            }
            interface = found
            method = found2
        case nil:
            guard let found = table.first(where: { $0.methodsByName[member] != nil }), let found2 = found.methodsByName[member]
            else {
                return replyError(call, .unknownMethod("no method \(member) at \(path)"))
            }
            interface = found
            method = found2
        }
        guard call.signature == method.inSignature.rawValue else {
            return replyError(
                call,
                .invalidArgs(
                    "\(interface.name).\(member) expects arguments '\(method.inSignature)', received '\(call.signature)'"))
        }
        // Descriptors only where the method's arguments name them: to any other method, a
        // descriptor is a peer's way to make us open files (each `h` read is a duplicate).
        if dbus_message_contains_unix_fds(call.raw) != 0, !method.inSignature.rawValue.utf8.contains(UInt8(ascii: "h")) {
            return replyError(call, .invalidArgs("\(interface.name).\(member) takes no file descriptors"))
        }
        // From here on, only the decoded body and the reply address: the handler may hold both
        // through a wait, and the received message goes with this function (ReplyAddress).
        let address = ReplyAddress(call)
        let invocation = MethodInvocation(
            sender: address.sender ?? "", path: path, interface: interface.name, member: member, body: call.body)
        let responder = Responder(
            connection: self, call: address, outSignature: method.outSignature, interface: interface.name,
            member: member)
        switch method.handler {
        case .immediate(let handler):
            do {
                responder.reply(try handler(invocation))
            } catch {
                responder.fail(error)
            }
        case .encoded(let handler):
            do {
                responder.reply(encoded: try handler(invocation))
            } catch {
                responder.fail(error)
            }
        case .deferred(let handler):
            do {
                try handler(invocation, responder)
            } catch {
                if responder.hasReplied {
                    log("\(interface.name).\(member) threw after replying: \(error)")
                } else {
                    responder.fail(error)
                }
            }
        }
    }

    /// The names of the nodes directly below `path` that lead to exported objects.
    func childNodes(of path: ObjectPath) -> [String] {
        let prefix = path.isRoot ? "/" : path.rawValue + "/"
        var names = Set<String>()
        for exported in objects.keys
        where exported.rawValue.hasPrefix(prefix) && exported != path && !unlistedObjects.contains(exported) {
            let rest = exported.rawValue.dropFirst(prefix.count)
            if let first = rest.split(separator: "/").first { names.insert(String(first)) }
        }
        return names.sorted()
    }

    private func handlePeer(_ call: Message, member: MemberName) {
        switch (member.rawValue, call.signature) {
        case ("Ping", ""):
            replyValues(call, [])
        case ("GetMachineId", ""):
            guard let id = dbus_get_local_machine_id() else {
                return replyError(call, .failed("no machine id"))
            }
            defer { dbus_free(id) }
            replyValues(call, [.string(String(cString: id))])
        case ("Ping", _), ("GetMachineId", _):
            replyError(call, .invalidArgs("\(member) takes no arguments, got '\(call.signature)'"))
        default:
            replyError(call, .unknownMethod("no method \(member) in \(InterfaceName.peer)"))
        }
    }

    private func handleProperties(_ call: Message, member: MemberName, table: [Interface], path: ObjectPath) {
        let expected: String
        switch member.rawValue {
        case "Get": expected = "ss"
        case "GetAll": expected = "s"
        case "Set": expected = "ssv"
        default: return replyError(call, .unknownMethod("no method \(member) in \(InterfaceName.properties)"))
        }
        guard call.signature == expected else {
            return replyError(call, .invalidArgs("Properties.\(member) expects '\(expected)', received '\(call.signature)'"))
        }
        let body = call.body
        let interfaceText = body[0].string ?? ""
        guard let interface = table.first(where: { $0.name.rawValue == interfaceText }) else {
            if member.rawValue == "GetAll", [InterfaceName.introspectable, .peer, .properties].map(\.rawValue).contains(interfaceText) {
                return replyValues(call, [.dictionary(key: "s", value: "v", [])])
            }
            return replyError(call, .unknownInterface("no interface '\(interfaceText)' at \(path)"))
        }
        if let access = interface.propertyAccess {
            do {
                try access(call.sender ?? "")
            } catch {
                return replyError(call, DBusError(replyingTo: error))
            }
        }
        if member.rawValue == "GetAll" {
            var entries: [DictEntry] = []
            for property in interface.properties {
                let value = property.get()
                guard value.signature == property.signature else {
                    log("property \(interface.name).\(property.name) has type \(value.signature), expected \(property.signature)")
                    return replyError(call, .failed("property \(property.name) has the wrong type"))
                }
                entries.append(DictEntry(key: .string(property.name.rawValue), value: .variant(value)))
            }
            return replyValues(call, [.dictionary(key: "s", value: "v", entries)])
        }
        let name = body[1].string ?? ""
        guard let property = interface.propertiesByName[name] else {
            return replyError(call, .unknownProperty("no property '\(name)' in \(interface.name)"))
        }
        if member.rawValue == "Get" {
            let value = property.get()
            guard value.signature == property.signature else {
                log("property \(interface.name).\(name) has type \(value.signature), expected \(property.signature)")
                return replyError(call, .failed("property \(name) has the wrong type"))
            }
            return replyValues(call, [.variant(value)])
        }
        guard property.access == .readWrite, let setter = property.set else {
            return replyError(call, .propertyReadOnly("property \(interface.name).\(name) is read-only"))
        }
        let value = body[2].unwrappedOnce
        guard value.signature == property.signature else {
            return replyError(
                call, .invalidArgs("property \(interface.name).\(name) has type '\(property.signature)', got '\(value.signature)'"))
        }
        do {
            try setter(value, call.sender ?? "")
        } catch {
            return replyError(call, DBusError(replyingTo: error))
        }
        replyValues(call, [])
        if property.emitsChanged {
            emitPropertiesChanged(path: path, interface: interface.name, names: [name])
        }
    }
}

extension Value {
    /// The content of one variant layer (the value itself if it is not a variant).
    var unwrappedOnce: Value {
        if case .variant(let inner) = self { return inner }
        return self
    }
}
