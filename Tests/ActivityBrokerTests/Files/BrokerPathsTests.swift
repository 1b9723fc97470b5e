// The broker's own files under the XDG base directories (XDGPaths+Broker).
import ActivityBroker
import SystemSupport
import Testing

@Suite struct BrokerPathsTests {
    @Test func theBrokerFilesFollowHome() {
        let paths = XDGPaths(environment: ["HOME": "/home/ada/"])
        #expect(paths.usageFile == "/home/ada/.local/state/activity-broker/usage.json")
        #expect(paths.readingListFile == "/home/ada/.local/share/activity-broker/reading-list.json")
    }

    @Test func theBrokerFilesFollowTheVariables() {
        let paths = XDGPaths(environment: [
            "HOME": "/home/ada", "XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/state",
            "XDG_DATA_DIRS": "/opt/share:/usr/share/:/opt/share",
        ])
        #expect(paths.manifestDirectories == [
            "/data/activity-broker/extensions", "/opt/share/activity-broker/extensions",
            "/usr/share/activity-broker/extensions",
        ])
        #expect(paths.userManifestDirectory == "/data/activity-broker/extensions")
        #expect(paths.usageFile == "/state/activity-broker/usage.json")
    }
}
