// Match rules for incoming signals, and the token that cancels a subscription.
import Locking

/// Which signals a subscription receives. Nil fields match anything.
///
/// Sent to the bus (AddMatch) as `type='signal',sender='…',interface='…',member='…',path='…',arg0='…'`
/// and also checked locally, because the bus delivers unicast signals whether or not they match.
public struct MatchRule: Sendable, Hashable {
    /// A unique or well-known name; a well-known name is compared with its current owner.
    /// A string like the `sender` of `IncomingSignal` and a connection's `uniqueName`.
    public var sender: String?
    public var interface: InterfaceName?
    public var member: MemberName?
    public var path: ObjectPath?
    /// The first body argument, which must be a string (or object path) equal to this.
    public var arg0: String?

    public init(
        sender: String? = nil, interface: InterfaceName? = nil, member: MemberName? = nil, path: ObjectPath? = nil,
        arg0: String? = nil
    ) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.arg0 = arg0
    }

    /// The rule as the bus reads it. Quotes are escaped as `'\''` (the bus's own escaping).
    public var text: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            guard let value else { return }
            parts.append("\(key)='\(value.replacingNULs().replacingOccurrences("'", with: "'\\''"))'")
        }
        add("sender", sender)
        add("interface", interface?.rawValue)
        add("member", member?.rawValue)
        add("path", path?.rawValue)
        add("arg0", arg0)
        return parts.joined(separator: ",")
    }
}

/// A token for a match, owner watch or disconnect watch; pass it to `Connection.cancel`.
public struct Subscription: Hashable, Sendable {
    let id: Int
    /// Raised by `Connection.cancel` at once, on whatever thread: the subscription's entry is
    /// removed on the loop later, and delivery checks it, so that no handler call
    /// starts after `cancel` returns (a signal read before the removal ran is dropped).
    let cancelled: CancelFlag

    init(id: Int, cancelled: CancelFlag = CancelFlag()) {
        self.id = id
        self.cancelled = cancelled
    }

    public static func == (a: Subscription, b: Subscription) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A flag that is raised once and read from any thread (a subscription's cancellation).
final class CancelFlag: Sendable {
    private let raised = Locked(false)
    var isRaised: Bool { raised.value }
    func raise() { raised.value = true }
}

/// A handler added with `Connection.onEnd`, for `Connection.cancel(_:)`.
public struct EndWatch: Hashable, Sendable {
    let id: Int
}

extension String {
    /// Replaces every occurrence of `target` (avoids importing Foundation for this one call).
    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var out = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
