// The manifest fuzz target: Manifest.decode (and the JSON parser under it) on arbitrary bytes.
import ActivityKit
import Foundation

extension FuzzTarget {
    /// The file name every input is decoded under; errors must name it.
    static let manifestFileName = "fuzz.json"

    /// `Manifest.decode` on the input as a file's contents.
    ///
    /// Properties: an error is `InvalidArgument` whose message starts with the file name and
    /// holds no control characters (it goes to one-line logs); an accepted manifest, written
    /// out again by Foundation's JSON writer, decodes to the same activity.
    public static let manifest = FuzzTarget(
        name: "manifest",
        dictionary: [
            "{", "}", "[", "]", ":", ",", "\"", "\\\"", "\\u0000", "\\ud800", "\\udc00", "\\u001b", "null",
            "true", "false", "0", "-0", "1e999", "1.5", "9223372036854775808", "\"id\":", "\"name\":",
            "\"names\":", "\"icon\":", "\"category\":", "\"share\"", "\"action\"", "\"match\":",
            "\"schemes\":", "\"hosts\":", "\"path_prefixes\":", "\"requires\":", "\"executables\":",
            "\"dbus_names\":", "\"perform\":", "\"exec\":", "\"open\":", "\"dbus\":", "\"candidates\":",
            "\"stdin\":", "\"env\":", "\"path\":", "\"priority\":", "\"default_handler_alias\":",
            "\"{url}\"", "{title}", "{text}", "{{", "}}", "\"https://example.org/?u={url}\"", "\"*.\"",
            "\"org.example.App\"", "\"/org/example/App\"", "\u{1B}[2J", "\u{202E}", "\u{FEFF}",
        ]
    ) { bytes throws(FuzzFailure) in
        let data = Data(bytes)
        if Manifest.isMask(bytes) { return false }
        let activity: Activity
        do throws(ActivityError) {
            activity = try Manifest.decode(bytes, fileName: manifestFileName, origin: .user)
        } catch {
            try FuzzFailure.require(
                error.name == "InvalidArgument", "a manifest error is InvalidArgument", "\(error)")
            try FuzzFailure.require(
                TextChecks.startsWith(error.message, manifestFileName + ": "), "a manifest error names the file",
                TextChecks.shown(error.message))
            try FuzzFailure.require(
                !TextChecks.hasControl(error.message), "a manifest error holds no control characters",
                TextChecks.shown(error.message))
            return false
        }
        try checkRoundTrip(data, activity)
        return true
    }

    /// Foundation's writer is a second encoder: what it writes back must decode the same.
    private static func checkRoundTrip(_ data: Data, _ activity: Activity) throws(FuzzFailure) {
        // Foundation may refuse what our parser accepts (or read numbers differently): only a
        // document both read is compared. Foundation on Linux also drops U+FEFF inside strings
        // ({"\u{FEFF}icon": …} reads as "icon"), so documents holding one after the start are
        // not compared.
        let escaped = String(decoding: data, as: UTF8.self).lowercased().contains("\\ufeff")
        if escaped || data.dropFirst(3).firstRange(of: [0xEF, 0xBB, 0xBF]) != nil { return }
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            let written = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        let again: Activity
        do {
            again = try Manifest.decode(Array(written), fileName: manifestFileName, origin: .user)
        } catch {
            throw FuzzFailure(
                "an accepted manifest, written again, is accepted",
                "\(error) for \(TextChecks.shown(String(decoding: written, as: UTF8.self)))")
        }
        try FuzzFailure.require(
            again == activity, "an accepted manifest, written again, decodes the same",
            "\(activity) became \(again)")
    }
}
