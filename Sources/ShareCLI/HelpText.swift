// The text of `share --help` and of each command's own help (`share COMMAND --help`, `share help COMMAND`).
enum HelpText {
    /// The help for `COMMAND`: `share help COMMAND`, `share COMMAND --help`, `share COMMAND -h`.
    static func text(for command: String?) -> String {
        guard let command, let text = commands[command] else { return usage }
        return text + "\n\n" + common
    }

    /// What every command's help ends with.
    static let common = """
        Common options:
          --bus ADDRESS   talk to the broker on this D-Bus address instead of the session bus
          -h, --help      this help; 'share --help' lists every command

        Exit status: 0 completed, 1 the activity failed (explain: not offered), 2 bad usage or
        input, 3 the broker could not be reached, 130 cancelled, 141 the output pipe closed early.
        """

    /// Each command's help, listing every option it takes.
    static let commands: [String: String] = [
        "share": """
        share URL [--title T] [--text X] [--activity ID] — pick an activity for URL, then perform it

        Options:
          --title T       the page's title, passed to the activity as {title}
          --text X        a text to share along, passed as {text}
          --activity ID   perform ID without asking, and wait for it to finish (exit 2 when ID
                          is unknown or not offered for URL)

        In the picker: arrow keys or a number select, only Enter performs, Esc or q cancels.
        With TERM unset, empty or dumb: a numbered prompt. Without a terminal on standard
        input and output: the desktop's share sheet in a graphical session (DISPLAY or
        WAYLAND_DISPLAY set); else, or when the broker cannot show one, the list, and exit 2.
        """,
        "list": """
        share list URL [--title T] [--json] [--locale L] — the activities offered for URL, best first

        Options:
          --title T       the page's title (some activities match on it)
          --json          print a JSON array of {id, name, icon, category, origin}
          --locale L      names in locale L (default: LC_ALL, LC_MESSAGES or LANG)
        """,
        "activities": """
        share activities [--json] [--locale L] [--extensions-dir DIR]… — every registered
        activity, available or not

        Then the manifest files the broker skips (with file, line:column and error) and ids
        defined by more than one file (which one wins, and why), read from the directories
        the broker reads: $XDG_DATA_HOME/activity-broker/extensions, then each XDG_DATA_DIRS
        entry's; with --json these go to standard error.

        Options:
          --extensions-dir DIR
                          also read DIR as a built-in directory (as the broker's own
                          --extensions-dir; repeatable)
          --json          print a JSON array of {id, name, icon, category, origin, available, reason}
          --locale L      names in locale L (default: LC_ALL, LC_MESSAGES or LANG)
        """,
        "explain": """
        share explain ID URL [--json] — why ID is or is not offered for URL

        Exits 0 when ID is offered, 1 when it is not, 2 when ID is unknown.

        Options:
          --json          print {"id", "applies", "reason"}
        """,
        "check": """
        share check FILE… — validate manifests as the broker reads them (no broker needed)

        Prints, all on standard output: FILE:LINE:COLUMN: error: FIELD: MESSAGE for each
        problem (FILE: error: cannot read the file: REASON for a file it cannot read);
        warnings for unknown top-level keys (they are ignored, e.g. a misspelt "catgory"),
        for an id an earlier FILE also defines, and for a name not ending in .json (the
        broker reads only *.json); FILE: ok (ID) for each valid file, and FILE: ok (empty:
        masks …) for an empty or white-space file; a file over 1 MiB is an error, white space or
        not (the broker skips it unread). Exits 2 when any file has an error, else 0.
        """,
        "browse": """
        share browse URL — browse an http(s) URL in the terminal, with an Action button

        A link's number then Enter follows it (another scheme than http(s) asks y first);
        arrows/j/k scroll a line, PgUp/PgDn/Space a page, g/G the top/bottom; b/f back and
        forward, a the Action sheet, o the browser, r the reader, q or Esc done; while a
        page loads or an activity runs, q or Esc stops it and Ctrl-C quits (exit 130).
        """,
        "open": """
        share open URL [--json] — route URL: web pages to the browser window (or 'share
        browse' on a terminal), other schemes to the system, unsafe ones discarded (exit 2)

        Options:
          --json          print the decision as {"url", "outcome", "opened"?, "reason"?,
                          "error"?}; http(s) opens no window or session (exit 0), other
                          schemes still go to the system opener ("error": it failed, exit 1)
        """,
        "sheet": """
        share sheet URL [--title T] — the desktop's share sheet for URL; waits for the choice

        Then waits for the chosen activity: exit 0 completed, 1 it failed or the broker cannot
        show a sheet (none installed, or no graphical session of its own), 2 no activity
        applies, 130 the sheet was dismissed or the job cancelled.

        Options:
          --title T       the page's title
        """,
        "attributions": """
        share attributions [--json] [--clear] — pending Private Click Measurement data

        Lists the ad clicks kept for measurement (source site, destination site, source id,
        expiry day) and the reports waiting to be sent (trigger data, priority, the day after
        which they go out). Read from $XDG_STATE_HOME/activity-broker/attribution.json.

        Options:
          --json          print a JSON array of objects with "kind" ("click" or "report");
                          with --clear, {"cleared":true} once they are forgotten
          --clear         forget every pending click and report (asks the broker)
        """,
        "help": """
        share help [COMMAND] — the overview, or COMMAND's help (also 'share COMMAND --help')
        """,
    ]

    static let usage = """
        share — send a URL somewhere, or act on it, through the Activity Broker

        Usage:
          share URL [--title T] [--text X]     pick an activity for URL, then perform it
          share URL --activity ID              perform ID without asking, and wait for it
          share list URL [--title T] [--json] [--locale L]
                                               the activities offered for URL
          share activities [--json] [--locale L] [--extensions-dir DIR]…
                                               every registered activity, broken manifests, id collisions
          share explain ID URL [--json]        why ID is or is not offered for URL (exit 1: not offered)
          share check FILE…                    validate manifest files as the broker reads them
          share browse URL                     browse an http(s) URL in the terminal, with an Action button
          share open URL [--json]              route URL: web pages to the desktop's browser window (or
                                               'share browse' without one), others to the system
          share sheet URL [--title T]          the desktop's share sheet for URL; waits for the choice
          share attributions [--json] [--clear] pending click measurement data, or forget it
          share --completions bash|zsh         print a shell completion script
          share help [COMMAND]                 this help, or a command's (also 'share COMMAND --help')
          share --help | --version

        Options:
          --bus ADDRESS   talk to the broker on this D-Bus address instead of the session bus
          --locale L      for list and activities: names in locale L; by default, and for the
                          picker and share open's Action sheet, the first non-empty of LC_ALL,
                          LC_MESSAGES, LANG ('C' and 'POSIX' mean none)
          --extensions-dir DIR
                          for activities: also read DIR as a built-in manifest directory

        Examples:
          share https://example.org --title "Example"
          share list https://www.youtube.com/watch?v=x --json
          share https://example.org --activity org.activitybroker.copy-link
          share explain org.activitybroker.telegram https://example.org

        In the picker: arrow keys or a number select, only Enter performs, Esc or q cancels.

        In share browse: a link's number then Enter follows it (another scheme than http(s)
        asks y first); arrows/j/k scroll a line, PgUp/PgDn/Space a page, g/G the top/bottom;
        b/f back and forward, a the Action sheet, o the browser, r the reader, q or Esc done;
        while a page loads, q or Esc stops it and Ctrl-C quits.

        Without a terminal on standard input and output, in a graphical session (DISPLAY or
        WAYLAND_DISPLAY set), 'share URL' shows the desktop's share sheet instead.

        Exit status: 0 completed, 1 the activity failed, 2 bad usage or input,
        3 the broker could not be reached, 130 cancelled, 141 the output pipe closed early.
        """
}
