// DBusSyntax: small validators for the D-Bus names a manifest may contain (bus names, object paths).

/// Syntax checks from the D-Bus specification, so the domain can reject bad manifests without the DBus module.
public enum DBusSyntax {
    /// Whether `s` is a valid bus name: well-known (`org.example.App`) or, with `allowUnique`, unique (`:1.42`).
    public static func isValidBusName(_ s: String, allowUnique: Bool = false) -> Bool {
        let b = Array(s.utf8)
        guard !b.isEmpty, b.count <= 255 else { return false }
        let unique = b[0] == UInt8(ascii: ":")
        if unique && !allowUnique { return false }
        let body = unique ? b.dropFirst() : b[...]
        let elements = body.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        for e in elements {
            guard let first = e.first else { return false }
            if !unique && first >= 0x30 && first <= 0x39 { return false }
            if !e.allSatisfy({ HostName.isAlnum($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) {
                return false
            }
        }
        return true
    }

    /// Whether `s` is a valid object path (`/` or `/a/b_c`, elements of `[A-Za-z0-9_]`, no trailing `/`).
    public static func isValidObjectPath(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.first == UInt8(ascii: "/") else { return false }
        if b.count == 1 { return true }
        let elements = b.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        return elements.allSatisfy { e in
            !e.isEmpty && e.allSatisfy { HostName.isAlnum($0) || $0 == UInt8(ascii: "_") }
        }
    }

    /// Whether `s` is a portable environment variable name (`[A-Za-z_][A-Za-z0-9_]*`).
    public static func isValidVariableName(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard let first = b.first, !(first >= 0x30 && first <= 0x39) else { return false }
        return b.allSatisfy { HostName.isAlnum($0) || $0 == UInt8(ascii: "_") }
    }
}
