// Test support: a fixed Environment and helpers to build activities and catch typed errors.

import Foundation
import Testing

@testable import ActivityKit

/// An environment with a fixed set of programs, bus names and variables.
struct FixedEnvironment: Environment {
    var executables: Set<String> = []
    var busNames: Set<String> = []
    var variables: Set<String> = []
    func hasExecutable(_ name: String) -> Bool { executables.contains(name) }
    func hasBusName(_ name: String) -> Bool { busNames.contains(name) }
    func hasVariable(_ name: String) -> Bool { variables.contains(name) }
}

/// The ActivityError `body` throws; nil when it throws nothing (another error type fails the test).
func caught<T>(_ body: () throws -> T) -> ActivityError? {
    do {
        _ = try body()
        return nil
    } catch let error as ActivityError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

func id(_ s: String) -> ActivityID {
    do { return try ActivityID(s) } catch { fatalError("bad test id \(s): \(error)") }
}

func url(_ s: String) -> SharedURL {
    do { return try SharedURL(s) } catch { fatalError("bad test URL \(s): \(error)") }
}

func items(_ u: String, title: String? = nil, text: String? = nil) -> Items {
    do { return try Items(url: u, title: title, text: text) } catch { fatalError("bad test items: \(error)") }
}

/// An `open` activity with the given rule parts.
func activity(
    _ ident: String, name: String? = nil, category: ActivityCategory = .share, priority: Int = 0,
    schemes: [String]? = nil, hosts: [String]? = nil, paths: [String]? = nil, names: [String: String] = [:],
    origin: ActivityOrigin = .builtin
) -> Activity {
    do {
        let rule = try MatchRule(schemes: schemes, hosts: hosts, pathPrefixes: paths)
        let open = try OpenSpec(template: Template("https://example.net/share?u={url}"))
        return Activity(
            id: try ActivityID(ident), name: name ?? ident, names: names, category: category, origin: origin,
            match: rule, perform: .open(open), priority: priority)
    } catch {
        fatalError("bad test activity \(ident): \(error)")
    }
}
