// `share explain --json`: {"id", "applies", "reason"}, keys sorted, escaped like the other JSON output.
import Foundation
import TerminalUI

struct ExplainJSON: Encodable {
    let id: String
    let applies: Bool
    let reason: String

    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return TextSanitizer.escapingJSON(String(decoding: data, as: UTF8.self))
    }
}
