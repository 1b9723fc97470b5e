// The share command line (API.md §8), parsed into one value.
import Foundation

/// What the user asked `share` to do.
public enum ShareInvocation: Equatable, Sendable {
    /// `share URL [--title T] [--text X] [--activity ID]`: pick (or use ID) and perform.
    case share(url: String, title: String?, text: String?, activity: String?)
    case list(url: String, title: String?, json: Bool, locale: String?)
    /// `share activities [--json] [--locale L] [--extensions-dir DIR]…`: also broken manifest
    /// files and id collisions, from the broker's directories plus the built-in ones given.
    case activities(json: Bool, locale: String?, extensionDirectories: [String] = [])
    /// `share explain ID URL [--json]`: exit 1 when ID is not offered.
    case explain(id: String, url: String, json: Bool)
    /// `share check FILE…`: validates manifests as the broker reads them; no broker needed.
    case check(files: [String])
    case browse(url: String)
    /// `share sheet URL [--title T]`: the desktop's share sheet, over no parent window.
    case sheet(url: String, title: String?)
    case open(url: String, json: Bool)
    case completions(shell: String)
    /// `share attributions [--json] [--clear]`: pending click measurement data (API.md §11).
    case attributions(json: Bool, clear: Bool)
    /// Hidden: activity ids for shell completion, one a line.
    case completeIDs
    /// `share help [COMMAND]`, `share [COMMAND] --help`: nil is the overview.
    case help(command: String?)
    case version
}

/// The parsed command line: the invocation and the bus to talk to.
public struct ShareArguments: Equatable, Sendable {
    public var invocation: ShareInvocation
    /// `--bus ADDRESS`; nil is the session bus.
    public var bus: String?

    /// Each command's own options, keyed as `HelpText.commands` ("share" is `share URL`), in
    /// the order the completion scripts offer them. The parser accepts these and no others, and
    /// the completion scripts offer exactly these, so neither can offer what the other refuses.
    static let commandOptions: [(command: String, options: [String])] = [
        ("share", ["--title", "--text", "--activity"]),
        ("list", ["--title", "--json", "--locale"]),
        ("activities", ["--json", "--locale", "--extensions-dir"]),
        ("explain", ["--json"]),
        ("check", []),
        ("browse", []),
        ("open", ["--json"]),
        ("sheet", ["--title"]),
        ("attributions", ["--json", "--clear"]),
        ("help", []),
    ]

    /// What every command takes besides its own options (`--help` is answered before the command
    /// is looked at, `--bus` kept aside from it).
    static let commonOptions = ["--bus", "--help"]

    /// The options that take a value, as `--NAME VALUE` or `--NAME=VALUE`.
    static let valuedOptions = [
        "--title", "--text", "--activity", "--locale", "--bus", "--completions", "--extensions-dir",
    ]

    /// `command`'s own options, in `commandOptions`' order; a name missing from the table is a
    /// bug here.
    static func ownOptions(of command: String) -> [String] {
        guard let entry = commandOptions.first(where: { $0.command == command }) else {
            preconditionFailure("no options listed for the command '\(command)'")
        }
        return entry.options
    }

    /// `command`'s own options, as the parser's allow-list.
    static func options(of command: String) -> Set<String> { Set(ownOptions(of: command)) }

    /// Parses the arguments after the program name. Throws a message naming what is wrong.
    public static func parse(_ arguments: [String]) throws(ShareUsageError) -> ShareArguments {
        var flags: [String: String] = [:]
        var switches: Set<String> = []
        var positional: [String] = []
        let valued = Set(valuedOptions)
        var extensionDirectories: [String] = []
        let boolean: Set<String> = ["--json", "--help", "-h", "--version", "--clear"]
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                positional += rest
                break
            }
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--"),
                valued.contains(String(argument[..<equals]))
            {
                flags[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
                if argument.hasPrefix("--extensions-dir=") {
                    extensionDirectories.append(flags["--extensions-dir"]!)
                }
            } else if valued.contains(argument) {
                guard let value = rest.popFirst() else { throw ShareUsageError("\(argument) needs a value") }
                flags[argument] = value
                if argument == "--extensions-dir" { extensionDirectories.append(value) }
            } else if boolean.contains(argument) {
                switches.insert(argument)
            } else if argument.hasPrefix("-") && argument.count > 1 {
                throw ShareUsageError("unknown option '\(argument)'")
            } else {
                positional.append(argument)
            }
        }
        let bus = flags["--bus"]
        func done(_ invocation: ShareInvocation, allowed: Set<String>) throws(ShareUsageError)
            -> ShareArguments
        {
            let used = Set(flags.keys).union(switches).subtracting(["--bus"])
            if let extra = used.subtracting(allowed).sorted().first {
                throw ShareUsageError("option '\(extra)' does not apply here")
            }
            return ShareArguments(invocation: invocation, bus: bus)
        }
        func expect(_ count: Int, _ usage: String) throws(ShareUsageError) {
            if positional.count - 1 < count { throw ShareUsageError("missing argument: \(usage)") }
            if positional.count - 1 > count {
                throw ShareUsageError("unexpected argument '\(positional[count + 1])': \(usage)")
            }
        }

        if switches.contains("--help") || switches.contains("-h") {
            let command = positional.first.flatMap { HelpText.commands[$0] != nil ? $0 : nil }
            return ShareArguments(invocation: .help(command: command), bus: bus)
        }
        // Like every other form, these two take nothing they would ignore.
        if switches.contains("--version") {
            if let extra = positional.first {
                throw ShareUsageError("unexpected argument '\(extra)': share --version")
            }
            return try done(.version, allowed: ["--version"])
        }
        if let shell = flags["--completions"] {
            guard ["bash", "zsh"].contains(shell) else {
                throw ShareUsageError("--completions takes bash or zsh, not '\(shell)'")
            }
            if let extra = positional.first {
                throw ShareUsageError("unexpected argument '\(extra)': share --completions bash|zsh")
            }
            return try done(.completions(shell: shell), allowed: ["--completions"])
        }
        // `main` adds the hint to try --help.
        guard let first = positional.first else { throw ShareUsageError("missing URL") }
        switch first {
        case "help":
            guard positional.count <= 2 else {
                throw ShareUsageError("unexpected argument '\(positional[2])': share help [COMMAND]")
            }
            let command = positional.count == 2 ? positional[1] : nil
            if let command, HelpText.commands[command] == nil {
                throw ShareUsageError(
                    "no help for '\(command)' (commands: \(HelpText.commands.keys.sorted().joined(separator: ", ")))"
                )
            }
            return try done(.help(command: command), allowed: options(of: "help"))
        case "check":
            guard positional.count > 1 else { throw ShareUsageError("missing argument: share check FILE…") }
            return try done(.check(files: Array(positional.dropFirst())), allowed: options(of: "check"))
        case "list":
            try expect(1, "share list URL [--json] [--locale L]")
            return try done(
                .list(
                    url: positional[1], title: flags["--title"], json: switches.contains("--json"),
                    locale: flags["--locale"]),
                allowed: options(of: "list"))
        case "activities":
            try expect(0, "share activities [--json] [--locale L] [--extensions-dir DIR]…")
            return try done(
                .activities(
                    json: switches.contains("--json"), locale: flags["--locale"],
                    extensionDirectories: extensionDirectories),
                allowed: options(of: "activities"))
        case "explain":
            try expect(2, "share explain ID URL [--json]")
            return try done(
                .explain(id: positional[1], url: positional[2], json: switches.contains("--json")),
                allowed: options(of: "explain"))
        case "browse":
            try expect(1, "share browse URL")
            return try done(.browse(url: positional[1]), allowed: options(of: "browse"))
        case "sheet":
            try expect(1, "share sheet URL [--title T]")
            return try done(
                .sheet(url: positional[1], title: flags["--title"]), allowed: options(of: "sheet"))
        case "open":
            try expect(1, "share open URL [--json]")
            return try done(
                .open(url: positional[1], json: switches.contains("--json")), allowed: options(of: "open"))
        case "attributions":
            try expect(0, "share attributions [--json] [--clear]")
            return try done(
                .attributions(json: switches.contains("--json"), clear: switches.contains("--clear")),
                allowed: options(of: "attributions"))
        case "__complete-ids":
            return try done(.completeIDs, allowed: [])
        default:
            guard positional.count == 1 else {
                throw ShareUsageError("unexpected argument '\(positional[1])' (share takes one URL)")
            }
            return try done(
                .share(
                    url: first, title: flags["--title"], text: flags["--text"], activity: flags["--activity"]),
                allowed: options(of: "share"))
        }
    }
}

/// A usage mistake; `share` prints it and exits 2.
public struct ShareUsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
