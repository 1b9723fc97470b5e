// Signals: emitting, match subscriptions with local dispatch, name-owner and disconnect watches.
import CDBus

/// One subscription of a connection. Loop-confined.
final class SubscriptionEntry {
    enum Kind {
        case match(MatchRule, (IncomingSignal) -> Void)
        /// `ready` turns true once the initial GetNameOwner reply has been delivered; older
        /// NameOwnerChanged signals are ignored until then.
        case owner(name: String, handler: (String?) -> Void)
    }
    let kind: Kind
    let ruleText: String
    var ready = false
    /// The token's flag: raised, the entry delivers nothing though it is still in the table.
    let cancelled: CancelFlag

    init(kind: Kind, ruleText: String, cancelled: CancelFlag = CancelFlag()) {
        self.kind = kind
        self.ruleText = ruleText
        self.cancelled = cancelled
    }
}

extension Connection {
    private static let busName = BusName.bus.rawValue

    /// Sends a signal: broadcast when `signal.destination` is nil, unicast otherwise.
    /// Throws `InvalidArgs` when the body cannot be encoded, `Disconnected` after close.
    public func emit(_ signal: Signal) throws(DBusError) {
        let message = try Message.signal(signal)
        if isKnownClosed { throw .disconnected() }
        perform { self.sendOneWay(message) }
    }

    /// Subscribes to signals matching `rule`: AddMatch is sent to the bus (without waiting) and
    /// each received signal is checked against the rule locally. `handler` runs on the loop.
    public func addMatch(_ rule: MatchRule, handler: @escaping (IncomingSignal) -> Void) -> Subscription {
        let id = nextID()
        let box = UncheckedBox(handler)
        let cancelled = CancelFlag()
        perform {
            guard self.isOpen, !cancelled.isRaised else { return }
            let entry = SubscriptionEntry(
                kind: .match(rule, box.value), ruleText: rule.text, cancelled: cancelled)
            self.subscriptions[id] = entry
            self.addRule(entry.ruleText)
            if let sender = rule.sender, Self.isWellKnown(sender) { self.trackSender(sender) }
        }
        return Subscription(id: id, cancelled: cancelled)
    }

    /// Calls `handler` on the loop with the current owner of `name` (nil: none), then with every
    /// change, until cancelled.
    public func watchNameOwner(_ name: BusName, handler: @escaping (String?) -> Void) -> Subscription {
        let id = nextID()
        let box = UncheckedBox(handler)
        let cancelled = CancelFlag()
        perform {
            guard !cancelled.isRaised else { return }
            self.startOwnerWatch(id: id, name: name.rawValue, cancelled: cancelled, handler: box.value)
        }
        return Subscription(id: id, cancelled: cancelled)
    }

    /// Calls `handler` on the loop once when `uniqueName` leaves the bus (at once if it is
    /// already gone or is not a valid name).
    public func watchDisconnect(of uniqueName: String, handler: @escaping () -> Void) -> Subscription {
        let id = nextID()
        let box = UncheckedBox(handler)
        let cancelled = CancelFlag()
        perform {
            guard !cancelled.isRaised else { return }
            guard (try? BusName(uniqueName)) != nil else { return box.value() }
            self.startOwnerWatch(id: id, name: uniqueName, cancelled: cancelled) { [weak self] owner in
                guard owner == nil else { return }
                self?.cancelNow(id)
                box.value()
            }
        }
        return Subscription(id: id, cancelled: cancelled)
    }

    /// Ends a subscription; its handler is not called afterwards: no call starts once this
    /// returns, on whatever thread it was called (a call already running on the loop finishes).
    /// Unknown tokens are ignored.
    public func cancel(_ subscription: Subscription) {
        subscription.cancelled.raise()
        perform { self.cancelNow(subscription.id) }
    }

    // MARK: On the loop

    static func isWellKnown(_ name: String) -> Bool { !name.hasPrefix(":") && name != busName }

    private func startOwnerWatch(
        id: Int, name: String, cancelled: CancelFlag = CancelFlag(), handler: @escaping (String?) -> Void
    ) {
        guard isOpen else { return }
        let rule = MatchRule(
            sender: Self.busName, interface: .bus, member: "NameOwnerChanged", path: "/org/freedesktop/DBus",
            arg0: name)
        let entry = SubscriptionEntry(
            kind: .owner(name: name, handler: handler), ruleText: rule.text, cancelled: cancelled)
        subscriptions[id] = entry
        addRule(entry.ruleText)
        // Sent after AddMatch, so every change after this reply is seen.
        call(.bus("GetNameOwner", [.string(name)])) { [weak self] result in
            guard let self, self.subscriptions[id] === entry, !entry.cancelled.isRaised else { return }
            entry.ready = true
            handler((try? result.get())?.first?.string)
        }
    }

    func cancelNow(_ id: Int) {
        guard let entry = subscriptions.removeValue(forKey: id) else { return }
        removeRule(entry.ruleText)
        if case .match(let rule, _) = entry.kind, let sender = rule.sender, Self.isWellKnown(sender) {
            untrackSender(sender)
        }
    }

    private func addRule(_ text: String) {
        ruleCounts[text, default: 0] += 1
        guard ruleCounts[text] == 1 else { return }
        call(.bus("AddMatch", [.string(text)])) { result in
            if case .failure(let error) = result { log("AddMatch \(text) failed: \(error)") }
        }
    }

    private func removeRule(_ text: String) {
        guard let count = ruleCounts[text] else { return }
        if count > 1 {
            ruleCounts[text] = count - 1
            return
        }
        ruleCounts.removeValue(forKey: text)
        guard isOpen else { return }
        call(.bus("RemoveMatch", [.string(text)])) { _ in }
    }

    /// Keeps `knownOwners[name]` current while a match names `name` as its sender.
    private func trackSender(_ name: String) {
        if let tracking = senderTracking[name] {
            senderTracking[name] = (tracking.subscription, tracking.count + 1)
            return
        }
        let id = nextID()
        startOwnerWatch(id: id, name: name) { [weak self] owner in self?.knownOwners[name] = .some(owner) }
        senderTracking[name] = (Subscription(id: id), 1)
    }

    private func untrackSender(_ name: String) {
        guard let tracking = senderTracking[name] else { return }
        if tracking.count > 1 {
            senderTracking[name] = (tracking.subscription, tracking.count - 1)
            return
        }
        senderTracking.removeValue(forKey: name)
        knownOwners.removeValue(forKey: name)
        cancelNow(tracking.subscription.id)
    }

    /// Routes one message from libdbus; true when we handled it.
    func handle(_ message: Message) -> Bool {
        switch message.type {
        case DBUS_MESSAGE_TYPE_METHOD_CALL:
            handleMethodCall(message)
        case DBUS_MESSAGE_TYPE_METHOD_RETURN, DBUS_MESSAGE_TYPE_ERROR:
            handleReply(message)
        case DBUS_MESSAGE_TYPE_SIGNAL:
            handleSignal(message)
        default:
            return false
        }
        return true
    }

    private func handleSignal(_ message: Message) {
        let interface = message.interface ?? ""
        let member = message.member ?? ""
        let sender = message.sender ?? ""
        if interface == "org.freedesktop.DBus.Local" {
            // libdbus's own has no sender; the bus disconnects a peer that sends on Local, but a
            // copy from a peer must not close us on any bus.
            if member == "Disconnected", message.sender == nil { handleDisconnected() }
            return
        }
        let body = message.body
        if sender == Self.busName && interface == Self.busName {
            if member == "NameLost", let name = body.first?.string, message.destination == uniqueName {
                for handler in nameLostHandlers { handler(BusName(unchecked: name)) }
            }
            if member == "NameOwnerChanged", body.count == 3, let name = body[0].string,
                let owner = body[2].string
            {
                notifyOwnerWatches(name: name, owner: owner.isEmpty ? nil : owner)
            }
        }
        let signal = IncomingSignal(
            sender: sender, path: ObjectPath(unchecked: message.path ?? "/"), interface: interface,
            member: member,
            body: body, destination: message.destination)
        for id in subscriptions.keys.sorted() {
            // A handler may cancel subscriptions, including later ones.
            // The flag last: a lock taken only for the entries that match.
            guard let entry = subscriptions[id], case .match(let rule, let handler) = entry.kind,
                matches(rule, signal), !entry.cancelled.isRaised
            else { continue }
            handler(signal)
        }
    }

    private func notifyOwnerWatches(name: String, owner: String?) {
        for id in subscriptions.keys.sorted() {
            guard let entry = subscriptions[id], entry.ready,
                case .owner(let watched, let handler) = entry.kind,
                watched == name, !entry.cancelled.isRaised
            else { continue }
            handler(owner)
        }
    }

    private func matches(_ rule: MatchRule, _ signal: IncomingSignal) -> Bool {
        if let interface = rule.interface, interface.rawValue != signal.interface { return false }
        if let member = rule.member, member.rawValue != signal.member { return false }
        if let path = rule.path, path != signal.path { return false }
        if let arg0 = rule.arg0 {
            let first: String?
            switch signal.body.first {
            case .string(let text)?: first = text
            case .objectPath(let path)?: first = path.rawValue
            default: first = nil
            }
            if first != arg0 { return false }
        }
        if let sender = rule.sender, sender != signal.sender {
            // A well-known sender is compared with its owner; unknown yet, trust the bus's routing.
            guard Self.isWellKnown(sender) else { return false }
            if let owner = knownOwners[sender], owner != signal.sender { return false }
        }
        return true
    }
}
