// The desktop-entry fuzz target: DesktopEntry (the key-file parser), MimeAppsList and the Exec line parser.
import ActivityKit
import Foundation

extension FuzzTarget {
    static let desktopFileName = "fuzz.desktop"
    /// The URL launches are expanded with: a query with escaped braces, so brace doubling matters.
    static let desktopURL = "https://example.org/a%20b?q=%7Burl%7D&x=1#top"
    /// `%c` and `%k` carry braces and a field code, which must come out as written.
    static let desktopContext = DesktopExec.Context(
        icon: "icon-{x}", name: "App {url} %u", desktopFilePath: "/usr/share/applications/{a}.desktop")

    /// `DesktopEntry(data:fileName:)` and `MimeAppsList(parsing:path:)` on the input as a file;
    /// for an accepted entry every typed accessor of every key, and its `Exec` line.
    ///
    /// Properties: an error names the file and a line inside it; the broker's argv template
    /// for the Exec line, expanded by `Template` for a URL, gives exactly the arguments of a
    /// direct launch — one element per argument, the URL always one element.
    public static let desktopEntry = FuzzTarget(
        name: "desktop-entry",
        dictionary: [
            "[Desktop Entry]\n", "[Desktop Action new]\n", "[", "]", "=", "\n", "\r\n", "\r", "#", " ", "\t",
            "Type=Application\n", "Name=", "Name[de]=", "Name[sr@latin]=", "Exec=", "MimeType=",
            "x-scheme-handler/https;", "Icon=", "Path=", "Terminal=true\n", "DBusActivatable=true\n",
            "NoDisplay=", "Hidden=true\n", "TryExec=", "%u", "%U", "%f", "%F", "%i", "%c", "%k", "%%",
            "%d", "%z", "\"", "\\\"", "\\\\", "\\s", "\\n", "\\t", "\\;", "\\", ";", "`", "$", "'", "{", "}",
            "{{", "{url}", "[Added Associations]\n", "[Default Applications]\n", "[Removed Associations]\n",
            "\u{1B}]0;", "\u{0}", "\u{C2}", "\u{202E}",
        ]
    ) { bytes throws(FuzzFailure) in
        let lineCount = bytes.count(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) + 1
        func checkError(_ error: DesktopEntryError, _ fileName: String, _ parser: String) throws(FuzzFailure) {
            try FuzzFailure.require(
                error.fileName == fileName && TextChecks.startsWith(error.description, fileName),
                "a \(parser) error names the file", error.description)
            if let line = error.line {
                try FuzzFailure.require(
                    (1...lineCount).contains(line), "a \(parser) error names a line of the file",
                    "line \(line) of \(lineCount): \(error.description)")
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        do throws(DesktopEntryError) {
            _ = try MimeAppsList(parsing: text, path: "/fuzz/mimeapps.list")
        } catch {
            try checkError(error, "/fuzz/mimeapps.list", "mimeapps.list")
        }
        let entry: DesktopEntry
        do throws(DesktopEntryError) {
            entry = try DesktopEntry(data: bytes, fileName: desktopFileName)
        } catch {
            try checkError(error, desktopFileName, "desktop entry")
            return false
        }
        for group in entry.groupNames {
            for key in entry.keys(group: group) {
                _ = entry.rawValue(key, group: group)
                _ = entry.string(key, group: group)
                _ = entry.strings(key, group: group)
                _ = entry.localizedString(key, locale: "sr_RS.UTF-8@latin", group: group)
                _ = entry.localizedValues(key, group: group)
                do throws(DesktopEntryError) { _ = try entry.boolean(key, group: group) } catch { try checkError(error, desktopFileName, "boolean") }
                if let line = entry.line(ofKey: key, group: group) {
                    try FuzzFailure.require(
                        (1...lineCount).contains(line), "a key's line is inside the file", "\(key) at \(line)")
                }
            }
        }
        if let exec = entry.string("Exec") { try checkExec(exec) }
        return true
    }

    /// The Exec line: a direct launch and the broker's template must agree argument by argument.
    private static func checkExec(_ line: String) throws(FuzzFailure) {
        let exec: DesktopExec
        do throws(DesktopExecError) { exec = try DesktopExec(parsing: line) } catch {
            try FuzzFailure.require(!error.description.isEmpty, "an Exec error says why", "empty message")
            return
        }
        let direct: [String]
        do { direct = try exec.arguments(forURL: desktopURL, context: desktopContext) } catch { return }
        let templates: [String]
        do { templates = try exec.argvTemplate(context: desktopContext) } catch { return }
        try FuzzFailure.require(
            templates.count == direct.count, "the argv template has one element per launch argument",
            "\(templates) against \(direct)")
        let items: Items
        do { items = try Items(url: desktopURL) } catch {
            throw FuzzFailure("the launch URL is valid", "\(error)")
        }
        for (template, argument) in zip(templates, direct) {
            let parsed: Template
            do { parsed = try Template(template) } catch {
                throw FuzzFailure("an argv template element parses", "\(TextChecks.shown(template)): \(error)")
            }
            let expanded = parsed.expandRaw(items)
            try FuzzFailure.require(
                expanded == argument, "an argv template element expands to the launch argument",
                "\(TextChecks.shown(expanded)) against \(TextChecks.shown(argument))")
        }
        let urlArguments = direct.filter { $0.contains(desktopURL) }.count
        let urlCodes = exec.arguments.filter { $0.contains(.fieldCode("u")) || $0.contains(.fieldCode("U")) }.count
        try FuzzFailure.require(
            urlArguments >= urlCodes, "each %u argument holds the whole URL", "\(direct)")
    }
}
