// swift-tools-version:6.0
// A package outside the repository's: depends on it by path and uses ActivityBrokerClient as an app would.
import PackageDescription

let package = Package(
    name: "ClientPackageFixture",
    dependencies: [.package(name: "ActivityBroker", path: "../..")],
    targets: [
        .executableTarget(
            name: "NotesApp",
            dependencies: [
                .product(name: "ActivityBrokerClient", package: "ActivityBroker"),
                .product(name: "DBus", package: "ActivityBroker"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
