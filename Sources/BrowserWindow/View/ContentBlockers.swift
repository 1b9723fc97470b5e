// Safari-format content blockers: compiled from the XDG directories, applied to every page, recompiled on change.
import CGtk
import CWebKit
import Dispatch
import Foundation
import GtkSupport

/// Compiles every rule list of `ContentBlockerSources` with `WebKitUserContentFilterStore`
/// and installs the result in the shared content manager, so every page of every window is
/// filtered. A `GFileMonitor` on each directory recompiles when a file appears, changes or
/// goes (a removed list stops blocking; the page shown keeps what it loaded until reloaded).
/// A list that does not compile is logged and left out. Main thread.
@MainActor
final class ContentBlockers {
    private let sources: ContentBlockerSources
    private let store: OpaquePointer
    private let manager: OpaquePointer
    private var monitors: [OpaquePointer] = []
    private var generation = 0
    private var pending = false
    private var waiting: [() -> Void] = []
    /// True once the first compilation is installed.
    private(set) var isReady = false
    /// The identifiers installed now.
    private(set) var installed: [String] = []

    init(sources: ContentBlockerSources, storePath: String, manager: OpaquePointer) {
        self.sources = sources
        self.manager = manager
        store = webkit_user_content_filter_store_new(storePath)
        for directory in sources.directories { watch(directory) }
        recompile()
    }

    /// Runs `body` once the rule lists are compiled and installed (at once if they are), so a
    /// window's first load is already filtered.
    func whenReady(_ body: @escaping () -> Void) {
        if isReady { body() } else { waiting.append(body) }
    }

    private func watch(_ directory: String) {
        let file = g_file_new_for_path(directory)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        guard let monitor = g_file_monitor_directory(file, G_FILE_MONITOR_WATCH_MOVES, nil, &error) else {
            BrowserLog.write("content blockers: cannot watch \(directory): \(GAsync.take(&error) ?? "")")
            return
        }
        let pointer = OpaquePointer(monitor)
        monitors.append(pointer)
        // changed(GFileMonitor*, GFile *file, GFile *other_file, GFileMonitorEvent event)
        GtkSignals.connectWords(UnsafeMutableRawPointer(monitor), "changed", arguments: 3) { [weak self] _ in
            self?.scheduleRecompile()
            return 0
        }
    }

    /// Coalesces a burst of file events (create, write, close) into one compilation.
    private func scheduleRecompile() {
        guard !pending else { return }
        pending = true
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(100)) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.pending = false
                self.recompile()
            }
        }
    }

    private func recompile() {
        generation += 1
        let generation = generation
        let files = sources.files().sorted { $0.key < $1.key }
        let batch = Batch(count: files.count)
        if files.isEmpty {
            install([], generation: generation)
            return
        }
        for (id, path) in files {
            let file = g_file_new_for_path(path)
            let store = store
            GAsync.start({ callback, data in
                webkit_user_content_filter_store_save_from_file(store, id, file, nil, callback, data)
            }) { [weak self] result in
                var error: UnsafeMutablePointer<GError>?
                if let filter = webkit_user_content_filter_store_save_from_file_finish(store, result, &error)
                {
                    batch.filters.append((id, filter))
                } else {
                    BrowserLog.write(
                        "content blockers: \(path) does not compile: \(GAsync.take(&error) ?? "")")
                }
                batch.remaining -= 1
                if batch.remaining == 0 { self?.install(batch.filters, generation: generation) }
            }
            g_object_unref(UnsafeMutableRawPointer(file))
        }
    }

    private func install(_ filters: [(String, OpaquePointer)], generation: Int) {
        defer { for (_, filter) in filters { webkit_user_content_filter_unref(filter) } }
        // A newer compilation is under way: its result replaces this one.
        guard generation == self.generation else { return }
        webkit_user_content_manager_remove_all_filters(manager)
        for (_, filter) in filters { webkit_user_content_manager_add_filter(manager, filter) }
        installed = filters.map(\.0)
        BrowserLog.write("content blockers: \(installed.count) rule list(s) installed \(installed)")
        isReady = true
        let waiting = waiting
        self.waiting = []
        for body in waiting { body() }
    }

    /// The results of one compilation, filled as the store answers.
    private final class Batch {
        var remaining: Int
        var filters: [(String, OpaquePointer)] = []
        init(count: Int) { remaining = count }
    }
}
