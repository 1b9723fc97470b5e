// The text of `share --help`.
enum HelpText {
    static let usage = """
        share — send a URL somewhere, or act on it, through the Activity Broker

        Usage:
          share URL [--title T] [--text X]     pick an activity for URL, then perform it
          share URL --activity ID              perform ID without asking, and wait for it
          share list URL [--json] [--locale L] the activities offered for URL
          share activities [--json]            every registered activity, available or not
          share explain ID URL                 why ID is or is not offered for URL
          share browse URL                     browse an http(s) URL in the terminal, with an Action button
          share open URL [--json]              route URL: web pages to the desktop's browser window (or
                                               'share browse' without one), others to the system
          share sheet URL [--title T]          the desktop's share sheet for URL; waits for the choice
          share --completions bash|zsh         print a shell completion script
          share --help | --version

        Options:
          --bus ADDRESS   talk to the broker on this D-Bus address instead of the session bus

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
        3 the broker could not be reached, 130 cancelled.
        """
}
