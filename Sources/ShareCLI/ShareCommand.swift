// Runs a parsed share invocation against the broker and turns the result into an exit status.
import ActivityBrokerClient
import ActivityBrokerInterface
import ActivityKit
import DBus
import Foundation

/// Exit statuses of API.md §8.
public enum ShareExit: Int32, Sendable {
    case completed = 0
    case failed = 1
    case usage = 2
    case unreachable = 3
    case cancelled = 130
    /// Standard output or error was a pipe whose reader went away (EPIPE): share stops quietly
    /// with 128 + SIGPIPE, what a shell reports for a writer SIGPIPE killed, also when
    /// SIGPIPE is ignored and the write fails instead.
    case brokenPipe = 141
}

/// The `share` command.
public enum ShareCommand {
    public static let version = ProjectVersion.current

    /// Parses and runs; returns the process exit status.
    public static func main(_ arguments: [String]) async -> Int32 {
        let parsed: ShareArguments
        do {
            parsed = try ShareArguments.parse(arguments)
        } catch {
            Output.error("share: \(error.message)\nTry 'share --help'.")
            return ShareExit.usage.rawValue
        }
        let bus: BusAddress = parsed.bus.map { .address($0) } ?? .session
        do {
            return try await run(parsed.invocation, bus: bus).rawValue
        } catch let error as ShareFailure {
            Output.error("share: \(error.message)")
            return error.exit.rawValue
        } catch let error as BrokerError {
            let failure = ShareFailure(error)
            Output.error("share: \(failure.message)")
            return failure.exit.rawValue
        } catch {
            Output.error("share: \(error)")
            return ShareExit.failed.rawValue
        }
    }

    static func run(_ invocation: ShareInvocation, bus: BusAddress) async throws -> ShareExit {
        switch invocation {
        case .help(let command):
            Output.line(HelpText.text(for: command))
            return .completed
        case .check(let files):
            return CheckCommand.run(files: files)
        case .version:
            Output.line("share \(version)")
            return .completed
        case .completions(let shell):
            Output.line(shell == "bash" ? Completions.bash : Completions.zsh)
            return .completed
        case .completeIDs:
            let broker = try BrokerProxy.connect(bus: bus)
            // bash's `compgen -W` expands $(…), backticks and $VAR in its word list: an id as a
            // fake broker sent it would run code on Tab. Only ids the registry could hold go out.
            for activity in try await broker.registered() where (try? ActivityID(activity.id)) != nil {
                Output.line(activity.id)
            }
            return .completed
        case .list(let url, let title, let json, let locale):
            let items = try validatedItems(url: url, title: title, text: nil)
            let broker = try BrokerProxy.connect(bus: bus)
            let activities = try await broker.activities(for: items, locale: locale ?? environmentLocale)
            Output.line(json ? ActivityListing.json(activities) : ActivityListing.table(activities))
            return .completed
        case .activities(let json, let locale, let extensionDirectories):
            let broker = try BrokerProxy.connect(bus: bus)
            let activities = try await broker.registered(locale: locale ?? environmentLocale)
            Output.line(json ? ActivityListing.json(activities) : ActivityListing.registeredTable(activities))
            let survey = ManifestSurvey(
                directories: ManifestSurvey.directories(
                    environment: ProcessInfo.processInfo.environment, builtin: extensionDirectories))
            if !survey.text.isEmpty {
                // JSON on standard output stays one parseable array; the findings go to standard error.
                if json { Output.error(survey.text) } else { Output.line("\n" + survey.text) }
            }
            return .completed
        case .explain(let id, let url, let json):
            let items = try validatedItems(url: url, title: nil, text: nil)
            let broker = try BrokerProxy.connect(bus: bus)
            let (applies, reason) = try await broker.explain(id, items: items)
            if json {
                Output.line(ExplainJSON(id: id, applies: applies, reason: reason).text)
            } else {
                Output.line("\(id) is \(applies ? "offered" : "not offered"): \(reason)")
            }
            return applies ? .completed : .failed
        case .share(let url, let title, let text, let activity):
            let items = try validatedItems(url: url, title: title, text: text)
            let broker = try BrokerProxy.connect(bus: bus)
            // No terminal to pick on, but a desktop: the sheet, unless the broker cannot show one.
            if activity == nil, SheetCommand.replacesTheList(),
                let exit = try await SheetCommand.run(broker: broker, items: items, fallback: true)
            {
                return exit
            }
            return try await ShareFlow(broker: broker, items: items).run(activity: activity)
        case .sheet(let url, let title):
            let items = try validatedItems(url: url, title: title, text: nil)
            let broker = try BrokerProxy.connect(bus: bus)
            return try await SheetCommand.run(broker: broker, items: items) ?? .failed
        case .browse(let url):
            return try await BrowseCommand.run(url: url, bus: bus)
        case .open(let url, let json):
            return try await OpenCommand.run(url: url, json: json, bus: bus)
        case .attributions(let json, let clear):
            return try await AttributionsCommand.run(json: json, clear: clear, bus: bus)
        }
    }

    /// The locale from LC_ALL / LC_MESSAGES / LANG, for when --locale is not given.
    static var environmentLocale: String? {
        LocaleEnvironment.locale(in: ProcessInfo.processInfo.environment)
    }

    /// Checks the URL locally first, so that a typo is exit 2 even without a broker.
    static func validatedItems(url: String, title: String?, text: String?) throws(ShareFailure) -> SharedItems
    {
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex,
            url[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }),
            url[url.startIndex].isLetter
        else {
            throw ShareFailure(
                "'\(url)' is not an absolute URL (it needs a scheme, e.g. https://example.org)", exit: .usage)
        }
        return SharedItems(url: url, title: title, text: text)
    }
}

/// A failure with the exit status it means.
struct ShareFailure: Error {
    let message: String
    let exit: ShareExit

    init(_ message: String, exit: ShareExit) {
        self.message = message
        self.exit = exit
    }

    /// Broker errors: unreachable → 3 with how to start it; bad input → 2; others → 1.
    init(_ error: BrokerError) {
        switch error {
        case .unreachable(let address, let message, _):
            self.init(
                """
                could not reach the activity broker on \(address): \(message)
                Start it with 'activity-broker' (or 'make run' in the source tree), install its D-Bus \
                activation file, or point --bus at the bus it runs on.
                """, exit: .unreachable)
        case .invalidArgument(let message), .notFound(let message), .notApplicable(let message):
            self.init(message, exit: .usage)
        default:
            self.init(error.message, exit: .failed)
        }
    }
}
