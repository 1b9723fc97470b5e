// Installed applications as "Open in <Name>" activities (API.md §4.1), read from disk.
import ActivityKit
import Foundation

/// Reads desktop entries and mimeapps.list files and turns URL handlers into activities.
///
/// The parsing and the specification's rules live in ActivityKit (`DesktopApplicationScanner`,
/// `MimeAppsResolver`); this type only reads the files and builds `Activity` values.
struct DesktopApplicationsSource {
    private let environment: [String: String]
    private let home: String
    private let machine: MachineEnvironment
    let applicationDirectories: [String]
    private let mimeAppsPaths: [String]
    static let maximumFileSize = 1 << 20
    /// Applications named default handler of a URL's scheme rank above the others.
    static let defaultHandlerPriority = 10

    init(environment: [String: String], machine: MachineEnvironment) {
        self.environment = environment
        self.home = environment["HOME"] ?? NSHomeDirectory()
        self.machine = machine
        self.applicationDirectories = DesktopApplicationScanner.applicationDirectories(
            environment: environment, home: home)
        self.mimeAppsPaths = MimeAppsList.candidatePaths(environment: environment, home: home)
    }

    /// Directories whose changes mean a reload: applications and mimeapps.list locations.
    var watchedDirectories: [String] {
        var seen = Set<String>()
        return (applicationDirectories + mimeAppsPaths.map { ($0 as NSString).deletingLastPathComponent })
            .filter { seen.insert($0).inserted }
    }

    /// What a scan found: the activities, the default web browser, and each broken file.
    struct Loaded {
        var activities: [Activity]
        /// The default handler of `x-scheme-handler/https` per mimeapps.list, when installed.
        var defaultBrowser: DesktopApplication?
        var problems: [(file: String, message: String)]
    }

    /// Scans the applications and mimeapps.list files.
    func load() -> Loaded {
        let directories = applicationDirectories.map { path in
            DesktopApplicationScanner.Directory(path: path, files: Self.desktopFiles(under: path))
        }
        let result = DesktopApplicationScanner.scan(
            directories, currentDesktops: DesktopApplicationScanner.currentDesktops(from: environment["XDG_CURRENT_DESKTOP"]),
            locale: BrokerConfiguration.locale(from: environment), hasExecutable: machine.hasExecutable)
        let resolver = MimeAppsResolver(
            files: mimeAppsPaths.map { path in (path, Self.read(path) ?? "") })
        var problems = result.errors.map { (file: $0.fileName, message: $0.description) }
        problems += resolver.errors.map { (file: $0.fileName, message: $0.description) }

        let installed = result.applications.map(\.mimeAppsEntry)
        let browserID = resolver.defaultApplication(for: "x-scheme-handler/https", installed: installed)
        // One priority serves every scheme of an application, so the spec's fallback default
        // (the first associated application) for one scheme must not tie with the handler the
        // user named in mimeapps.list for another: named defaults win when there are any.
        var named: Set<String> = []
        var fallbacks: Set<String> = []
        for scheme in Set(result.applications.flatMap(\.schemes)) {
            let mimeType = "x-scheme-handler/\(scheme)"
            guard let id = resolver.defaultApplication(for: mimeType, installed: installed) else { continue }
            if resolver.lists.contains(where: { $0.defaults[mimeType]?.contains(id) == true }) {
                named.insert(id)
            } else {
                fallbacks.insert(id)
            }
        }
        let defaults = named.isEmpty ? fallbacks : named
        var activities: [Activity] = []
        for application in result.applications where application.canOpenURLs {
            do {
                activities.append(try activity(for: application, isDefault: defaults.contains(application.desktopID)))
            } catch {
                problems.append((application.path, error.message))
            }
        }
        return Loaded(
            activities: activities, defaultBrowser: result.applications.first { $0.desktopID == browserID },
            problems: problems)
    }

    private func activity(for application: DesktopApplication, isDefault: Bool) throws(ActivityError) -> Activity {
        let argv = try (application.argvTemplate ?? []).map { argument throws(ActivityError) in try Template(argument) }
        var names: [String: String] = [:]
        for (locale, phrase) in OpenInPhrase.translations {
            let language = String(locale.prefix(while: { $0 != "_" }))
            let appName = application.names[locale] ?? application.names[language] ?? application.name
            names[locale] = phrase.replacingOccurrences(of: "%@", with: appName)
        }
        for (locale, appName) in application.names where names[locale] == nil {
            names[locale] = "Open in \(appName)"
        }
        return Activity(
            id: try ActivityID(application.activityID), name: "Open in \(application.name)", names: names,
            icon: application.icon ?? "application-x-executable", category: .action, origin: .desktop,
            match: try ActivityKit.MatchRule(schemes: application.schemes), requires: Requirements(executables: [], dbusNames: []),
            perform: .exec(try ExecSpec(argv: argv, stdin: nil)),
            priority: isDefault ? Self.defaultHandlerPriority : 0, owner: nil)
    }

    private static func desktopFiles(under directory: String) -> [String: String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [:] }
        var files: [String: String] = [:]
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".desktop"), let contents = read(directory + "/" + relative) else { continue }
            files[relative] = contents
        }
        return files
    }

    private static func read(_ path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              (attributes[.size] as? Int ?? 0) <= maximumFileSize,
              let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

/// "Open in <App>" in the languages the built-in manifests are translated to.
enum OpenInPhrase {
    static let translations: [String: String] = [
        "de": "In %@ öffnen", "fr": "Ouvrir dans %@", "es": "Abrir en %@", "ja": "%@で開く",
    ]
}
