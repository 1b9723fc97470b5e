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
          share browse URL                     browse URL in the terminal, with an Action button
          share open URL [--json]              route URL: web pages to 'share browse', others to the system
          share --completions bash|zsh         print a shell completion script
          share --help | --version

        Options:
          --bus ADDRESS   talk to the broker on this D-Bus address instead of the session bus

        Examples:
          share https://example.org --title "Example"
          share list https://www.youtube.com/watch?v=x --json
          share https://example.org --activity org.activitybroker.copy-link
          share explain org.activitybroker.telegram https://example.org

        In the picker: arrow keys or a number to choose, Enter to perform, Esc or q to cancel.

        Exit status: 0 completed, 1 the activity failed, 2 bad usage or input,
        3 the broker could not be reached, 130 cancelled.
        """
}
