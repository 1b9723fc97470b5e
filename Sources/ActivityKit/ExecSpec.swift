// ExecSpec: run a program without a shell, each argument a template that stays one argument.

/// `perform.exec` (API.md §4): argv templates and an optional stdin template.
public struct ExecSpec: Hashable, Sendable {
    /// The argument templates; `argv[0]` is the program and never holds a placeholder.
    public let argv: [Template]
    /// What to write to the child's standard input (otherwise it gets `/dev/null`).
    public let stdin: Template?
    /// The child's working directory (a desktop entry's `Path=`); `nil`: the broker's.
    public let workingDirectory: String?

    /// Builds a spec.
    /// - Throws: `.invalidArgument` when argv is empty, argv[0] is empty or holds a placeholder
    ///   (the shared URL must never choose the program).
    public init(argv: [Template], stdin: Template? = nil, workingDirectory: String? = nil) throws(ActivityError) {
        guard let program = argv.first else { throw .invalidArgument("exec: must name a program") }
        if program.source.isEmpty { throw .invalidArgument("exec[0]: the program name is empty") }
        if program.hasPlaceholders {
            throw .invalidArgument(
                "exec[0]: the program '\(HostName.printable(String(program.source.prefix(80))))' must not contain placeholders"
            )
        }
        if program.source.utf8.contains(0) {
            throw .invalidArgument("exec[0]: the program name contains a NUL byte")
        }
        self.argv = argv
        self.stdin = stdin
        self.workingDirectory = workingDirectory
    }

    /// The program: `argv[0]`, a name looked up on PATH or an absolute path.
    public var program: String { argv[0].expandRaw(ExecSpec.noItems) }

    /// The arguments for `items`, each template expanded raw into exactly one argument.
    public func arguments(for items: Items) -> [String] {
        argv.map { $0.expandRaw(items) }
    }

    /// The standard input for `items`, or `nil` for `/dev/null`.
    public func input(for items: Items) -> String? {
        stdin?.expandRaw(items)
    }

    // argv[0] has no placeholders, so any items expand it the same way.
    private static let noItems: Items = {
        do { return try Items(url: "https://example.invalid/") } catch { preconditionFailure("\(error)") }
    }()
}
