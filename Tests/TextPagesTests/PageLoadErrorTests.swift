// PageLoadErrorTests: an HTTP error reads as it did when the model used FoundationNetworking's words.

import Foundation
import Navigation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Page load errors")
struct PageLoadErrorTests {
    /// Navigation spells the reason phrases itself so that it does not link FoundationNetworking;
    /// the words must stay those of `HTTPURLResponse`, which the loader's networking uses.
    @Test func httpStatusUsesFoundationsReasonPhrases() {
        let url = URL(string: "https://example.com/x")!
        let differing = (0...1000).filter { code in
            PageLoadError.httpStatus(code, url: url).description
                != "the server answered \(code) \(HTTPURLResponse.localizedString(forStatusCode: code)) for \(url)"
        }
        #expect(differing == [])
    }
}
