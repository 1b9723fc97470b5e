// LoopbackSession: a navigation session on a page of the loopback server, loaded by the terminal's PageLoader.

import Foundation
import Navigation
import TextPages

extension LoopbackServer {
    /// A session on `path` of this server whose pages come from `loader`; the other arguments
    /// are `NavigationSession`'s, with its defaults.
    func session(
        _ path: String, configuration: NavigationConfiguration = NavigationConfiguration(),
        loader: PageLoader = PageLoader(), offering: (any ActivityOffering)? = nil,
        opener: any URLOpening = SystemURLOpener(), delegate: (any NavigationSessionDelegate)? = nil
    ) -> NavigationSession {
        NavigationSession(
            url: url(path), configuration: configuration, loader: loader, offering: offering, opener: opener,
            delegate: delegate)
    }
}
