// XDGPaths: defaults, overrides, the relative-path rule and the desktop paths derived from them.
import Foundation
import Testing

@testable import SystemSupport

@Suite struct XDGPathsTests {
    @Test func defaultsFollowHome() {
        let paths = XDGPaths(environment: ["HOME": "/home/ada/"])
        #expect(paths.home == "/home/ada")
        #expect(paths.dataHome == "/home/ada/.local/share")
        #expect(paths.stateHome == "/home/ada/.local/state")
        #expect(paths.configHome == "/home/ada/.config")
        #expect(paths.dataDirectories == ["/usr/local/share", "/usr/share"])
        #expect(paths.configDirectories == ["/etc/xdg"])
        #expect(paths.currentDesktops == [])
    }

    @Test func variablesOverrideAndDeriveTheDesktopPaths() {
        let paths = XDGPaths(environment: [
            "HOME": "/home/ada", "XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/state",
            "XDG_CONFIG_HOME": "/config", "XDG_DATA_DIRS": "/opt/share:/usr/share/:/opt/share",
            "XDG_CONFIG_DIRS": "/etc/xdg/custom:/etc/xdg", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME",
        ])
        #expect(paths.dataDirectories == ["/opt/share", "/usr/share"])
        #expect(paths.currentDesktops == ["ubuntu", "GNOME"])
        #expect(paths.applicationDirectories == ["/data/applications", "/opt/share/applications", "/usr/share/applications"])
        #expect(paths.mimeAppsListFiles.prefix(3) == [
            "/config/ubuntu-mimeapps.list", "/config/gnome-mimeapps.list", "/config/mimeapps.list",
        ])
        #expect(paths.mimeAppsListFiles.last == "/usr/share/applications/mimeapps.list")
    }

    @Test func relativePathsAreIgnored() {
        let paths = XDGPaths(environment: [
            "HOME": "/home/ada", "XDG_DATA_HOME": "relative/share", "XDG_STATE_HOME": "",
            "XDG_DATA_DIRS": "share:/usr/share:./x", "XDG_CONFIG_DIRS": "etc:also/relative",
        ])
        #expect(paths.dataHome == "/home/ada/.local/share")
        #expect(paths.stateHome == "/home/ada/.local/state")
        #expect(paths.dataDirectories == ["/usr/share"])
        #expect(paths.configDirectories == ["/etc/xdg"])
    }

    @Test func relativeHomeFallsBackToThePasswordDatabase() {
        let paths = XDGPaths(environment: ["HOME": "not/absolute"])
        #expect(paths.home.hasPrefix("/"))
        #expect(paths.dataHome == (paths.home == "/" ? "" : paths.home) + "/.local/share")
    }
}
