// The one wording of a URL opener's failure (xdg-open's exit statuses translated), for the broker and the apps.

/// Why handing a URL to the system's opener failed, in words a person can act on.
///
/// The broker's `open` activities, `share open` and the browsing session all run an opener
/// (xdg-open by default) and report its failure with this one text, so that the same failure
/// reads the same wherever it shows. xdg-open's documented statuses are translated; another
/// opener's statuses are given as they are, since they may mean something else.
public enum OpenerFailure {
    /// The opener ran and did not succeed: `could not open the URL: <reason> (<program> <exit>)`.
    public static func message(program: String, exit: ProcessExit) -> String {
        let name = baseName(program)
        if name == "xdg-open", case .exited(let status) = exit, let reason = xdgOpenReasons[status] {
            return "could not open the URL: \(reason) (\(name) \(exit))"
        }
        return "could not open the URL: \(name) \(exit)"
    }

    /// The opener could not be started at all.
    public static func message(program: String, couldNotStart error: SpawnError) -> String {
        let reason: String
        switch error {
        case .notFound: reason = "program not found"
        case .permissionDenied: reason = "permission denied"
        case .failed: reason = error.description.dropPrefix(error.program + ": ")
        }
        return message(program: program, couldNotStartBecause: reason)
    }

    /// The opener could not be started, for `reason` (an `strerror` text, say).
    public static func message(program: String, couldNotStartBecause reason: String) -> String {
        "could not open the URL: could not start \(baseName(program)): \(reason)"
    }

    /// xdg-open(1), EXIT CODES.
    static let xdgOpenReasons: [Int32: String] = [
        1: "the opener rejected its arguments",
        2: "the file does not exist",
        3: "no application handles this URL",
        4: "the application that handles it failed",
    ]

    private static func baseName(_ program: String) -> String {
        program.split(separator: "/").last.map(String.init) ?? program
    }
}

extension String {
    fileprivate func dropPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
