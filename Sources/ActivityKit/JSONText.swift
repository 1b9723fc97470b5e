// JSONText: a JSON string literal written by hand, for the few JSON texts the domain writes itself.

/// String literals for the hand-written JSON of click measurement reports and usage.json.
enum JSONText {
    /// `text` as a JSON string: quotes, backslashes and control characters escaped (`\u00XX`),
    /// and `/` as `\/` when `escapingSlashes` (as `JSONEncoder` writes it).
    static func quoted(_ text: String, escapingSlashes: Bool = false) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where escapingSlashes: out += "\\/"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
