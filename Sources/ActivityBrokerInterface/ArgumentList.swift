// Named D-Bus arguments written as API.md writes them: "o handle, s app_id, a{sv} options".
import DBus

/// The named arguments of a method or signal, from a literal in API.md's notation: each
/// argument its signature, a space and its name, separated by commas. A literal that does not
/// read is a programmer error (precondition), like an invalid `Signature` literal.
public struct ArgumentList: ExpressibleByStringLiteral, ExpressibleByArrayLiteral, Sendable {
    public let arguments: [Argument]

    public init(stringLiteral text: String) {
        arguments = text.split(separator: ",").map { part in
            let words = part.split(separator: " ")
            precondition(words.count == 2, "'\(part)' in '\(text)' is not 'signature name'")
            return Argument(String(words[1]), Signature(stringLiteral: String(words[0])))
        }
    }

    /// `[]`: no arguments.
    public init(arrayLiteral arguments: Argument...) {
        self.arguments = arguments
    }
}
