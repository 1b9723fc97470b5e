// swift-tools-version:6.0
// The Activity Broker package: layers from CDBus (libdbus-1) up to the executables; see DESIGN.md.
import PackageDescription

/// `ACTIVITY_BROKER_STATIC=1 make release`: the release broker with the Swift runtime linked in
/// (README, "Installing"): 2.3 MB less resident memory with 10,000 activities, but none of its
/// runtime pages shared with the other Swift programs, and `lib_FoundationICU.so` (IDN host
/// normalization, opened on first use) found only on the system's library path. The daemon
/// links no FoundationEssentials (scripts/check-layers.py), so no static library of its own
/// needs naming here. Debug builds never: ThreadSanitizer intercepts libdispatch, which would
/// be inside the binary.
let staticRuntime: [LinkerSetting] =
    Context.environment["ACTIVITY_BROKER_STATIC"] == "1"
    ? [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))] : []

let package = Package(
    name: "ActivityBroker",
    products: [
        .library(name: "ActivityBrokerClient", targets: ["ActivityBrokerClient"]),
        // The client's public API takes DBus's `Connection`, `BusAddress` and `ObjectPath`:
        // apps import it too (docs/client-library.md).
        .library(name: "DBus", targets: ["DBus"]),
        .library(name: "Navigation", targets: ["Navigation"]),
        .library(name: "ActivityKit", targets: ["ActivityKit"]),
        .executable(name: "activity-broker", targets: ["activity-broker"]),
        .executable(name: "share", targets: ["share"]),
        .executable(name: "activity-reading-list", targets: ["activity-reading-list"]),
        .executable(name: "activity-qr", targets: ["activity-qr"]),
        .executable(name: "activity-sheet", targets: ["activity-sheet"]),
        .executable(name: "activity-browser", targets: ["activity-browser"]),
    ],
    targets: [
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // The one mutex (`Lock`) and a value behind it (`Locked`), below DBus and SystemSupport.
        .target(name: "Locking"),
        .target(name: "DBus", dependencies: ["CDBus", "Locking"]),
        .target(name: "ActivityKit"),
        .target(name: "ActivityBrokerInterface", dependencies: ["DBus", "ActivityKit"]),
        // Descriptors' readiness from one epoll thread of our own (libdispatch's crash: see DescriptorSource).
        .target(name: "CEpoll"),
        .target(name: "DescriptorEvents", dependencies: ["CEpoll", "Locking"]),
        .target(name: "SystemSupport", dependencies: ["Locking", "DescriptorEvents"]),
        .target(
            name: "ActivityBroker",
            dependencies: [
                "DBus", "ActivityKit", "ActivityBrokerInterface", "SystemSupport", "ReportTransport", "Locking",
            ]),
        .target(name: "ActivityBrokerClient", dependencies: ["DBus", "ActivityKit", "ActivityBrokerInterface", "Locking"]),
        .executableTarget(
            name: "activity-broker", dependencies: ["ActivityBroker", "Locking"], linkerSettings: staticRuntime),
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        .systemLibrary(
            name: "CWebKit",
            pkgConfig: "webkitgtk-6.0",
            providers: [.apt(["libwebkitgtk-6.0-dev"])]
        ),
        .target(name: "GtkSupport", dependencies: ["CGtk"]),
        // What the UI services share below GTK: caller checks, idle exit, options, broker-bench marks.
        .target(name: "UIServiceSupport", dependencies: ["DBus", "ActivityBrokerInterface"]),
        .target(
            name: "ShareSheet", dependencies: ["CGtk", "GtkSupport", "DBus", "ActivityBrokerInterface", "UIServiceSupport"]),
        .executableTarget(name: "activity-sheet", dependencies: ["ShareSheet", "UIServiceSupport"]),
        // broker-bench's floor for the sheet's first frame: a bare GTK 4 window.
        // What the two floors share, on CGtk alone.
        .target(name: "FloorSupport", dependencies: ["CGtk"]),
        .executableTarget(name: "gtk-first-frame", dependencies: ["CGtk", "FloorSupport"]),
        // broker-bench's floor for the browser window's first paint: a bare WebKitWebView.
        .executableTarget(name: "webkit-first-paint", dependencies: ["CGtk", "CWebKit", "FloorSupport"]),
        .target(name: "TerminalUI", dependencies: ["SystemSupport"]),
        .target(name: "Navigation", dependencies: ["ActivityBrokerClient", "SystemSupport"]),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "TextPages", dependencies: ["Navigation", "ActivityKit", "CCurl"]),
        // libcurl's header for ReportTransport, the library itself loaded by dlopen when a report
        // is sent: linked, it and its thirty dependencies cost the broker ~5.5 MB of RSS from start.
        .target(name: "CCurlLoader"),
        .target(name: "ReportTransport", dependencies: ["CCurlLoader"]),
        .target(
            name: "ShareCLI",
            dependencies: ["ActivityBrokerClient", "ActivityKit", "Navigation", "TextPages", "TerminalUI", "SystemSupport"]
        ),
        .executableTarget(name: "share", dependencies: ["ShareCLI"]),
        .target(
            name: "BrowserWindow",
            dependencies: [
                "CGtk", "CWebKit", "GtkSupport", "DBus", "ActivityBrokerInterface", "Navigation", "UIServiceSupport",
            ]
        ),
        .executableTarget(name: "activity-browser", dependencies: ["BrowserWindow", "UIServiceSupport"]),
        .executableTarget(
            name: "activity-reading-list", dependencies: ["ActivityBrokerInterface", "DBus", "SystemSupport", "UIServiceSupport"]),
        .executableTarget(name: "example-provider", dependencies: ["ActivityBrokerClient", "DBus"]),
        .executableTarget(name: "activity-qr", dependencies: ["SystemSupport", "ActivityBrokerInterface"]),
        .target(name: "TestSupport", dependencies: ["DBus", "ActivityBrokerInterface", "SystemSupport", "Locking"]),
        .executableTarget(name: "broker-bench", dependencies: ["DBus", "ActivityBrokerInterface", "TestSupport"]),
        // The fuzz targets of the parsers and their runner (`make fuzz`, docs/fuzzing.md).
        .target(name: "ActivityFuzzing", dependencies: ["ActivityKit"]),
        .executableTarget(name: "activity-fuzz", dependencies: ["ActivityFuzzing"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(name: "ActivityKitTests", dependencies: ["ActivityKit", "ActivityFuzzing", "TestSupport"]),
        .testTarget(name: "ShareSheetTests", dependencies: ["ShareSheet", "CGtk", "DBus"]),
        .testTarget(
            name: "ActivitySheetUITests",
            dependencies: ["ActivityBrokerClient", "ActivityBrokerInterface", "DBus", "TestSupport"],
            exclude: ["Resources"]
        ),
        .testTarget(
            name: "BrowserWindowTests",
            dependencies: ["BrowserWindow", "GtkSupport", "Navigation", "ActivityBrokerClient", "DBus"]),
        .testTarget(
            name: "ActivityBrowserUITests",
            dependencies: ["ActivityBrokerClient", "ActivityBrokerInterface", "DBus", "TestSupport"],
            exclude: ["Resources"]
        ),
        .testTarget(name: "ActivityFuzzingTests", dependencies: ["ActivityFuzzing", "ActivityKit", "TestSupport"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "SystemSupport", "TestSupport"]),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport", "DescriptorEvents", "DBus", "Locking", "TestSupport"]),
        .testTarget(name: "ShareCLITests", dependencies: ["ShareCLI", "TestSupport"]),
        .testTarget(
            name: "ActivityBrokerTests",
            dependencies: [
                "ActivityBroker", "ActivityBrokerInterface", "ActivityFuzzing", "ActivityKit", "DBus", "SystemSupport",
                "TestSupport",
            ]
        ),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation", "ActivityBrokerClient"]),
        .testTarget(
            name: "TextPagesTests",
            dependencies: ["TextPages", "Navigation", "ActivityBrokerClient", "TestSupport"]
        ),
        .testTarget(
            name: "ActivityBrokerClientTests",
            dependencies: ["ActivityBrokerClient", "ActivityBrokerInterface", "ActivityKit", "DBus", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
