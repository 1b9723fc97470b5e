// The line `share` prints when an activity completed, in every mode (list, picker, sheet, browse).
import ActivityBrokerClient

/// "Sent with Mail" for a share, "Done: Copy Link" for an action; with the provider's results
/// when it returned any ("Done: Add to Reading List (count=3)"). Callers print it through
/// `Output`, which sanitizes it.
enum CompletedLine {
    static func text(name: String, category: String?, results: [String: ResultValue] = [:]) -> String {
        var line = category == "share" ? "Sent with \(name)" : "Done: \(name)"
        let details = results.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        if !details.isEmpty { line += " (\(details.joined(separator: ", ")))" }
        return line
    }
}
