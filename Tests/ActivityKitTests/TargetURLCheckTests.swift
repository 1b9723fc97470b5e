// TargetURLCheck decides exactly what building and parsing the `open` URL decides, for every template shape, and the site ranking equals the URL's.
import Foundation
import TestSupport
import Testing

@testable import ActivityKit

@Suite struct TargetURLCheckTests {
    /// Templates of every shape: placeholders in the query or fragment (decided by length),
    /// in the path or host (built per call), literals that are never a URL, escapes at the edges.
    static let templates = [
        "{url}",
        "https://share.example/post?u={url}&t={title}",
        "https://share.example/post?u={url}&t={title}&x={text}#top",
        "https://share.example/#{url}",
        "https://share.example/?q=%41{url}%42",
        "https://share.example/?q=%4{url}",
        "https://share.example/?q={url}%",
        "https://share.example/?q={url}#a#b",
        "https://share.example/?q=[{url}]",
        "https://share.example/{url}?q",
        "https://{url}/x?y",
        "https://share.example/p/{title}/q",
        "mailto:?body={text}&subject={title}",
        "mailto:{text}",
        "http://{title}",
        "https://share.example/?u={url}&u2={url}&u3={url}",
        "https://ex ample/?u={url}",
        "https:?u={url}",
    ]

    static let urls = [
        "https://www.example.org/news/2026/story.html",
        "https://video.example.com/watch/12345?t=10#c",
        "javascript:alert(1)",
        "mailto:someone@example.org",
        "http://[::1]:8080/x/./y/../z",
        "https://XN--BCHER-KVA.example/%7Euser/a%2Fb",
        "https://host/" + String(repeating: "a", count: 11_000),
        "https://host/" + String(repeating: "%C3%A9", count: 1_800),
    ]

    static let titles: [String?] = [nil, "Ünïcode & more #?", String(repeating: "é", count: 2_000)]
    static let texts: [String?] = [nil, String(repeating: "x y/", count: 2_800), String(repeating: "#", count: 11_000)]

    @Test func decidesAsBuildingTheURLDoes() async throws {
        await offPool {
            var checked = 0
            for source in Self.templates {
                guard let spec = try? OpenSpec(template: Template(source)) else { continue }
                let check = TargetURLCheck(spec)
                for url in Self.urls {
                    for title in Self.titles {
                        for text in Self.texts {
                            guard let items = try? Items(url: url, title: title, text: text) else { continue }
                            var lengths: TargetURLCheck.Lengths?
                            let expected = (try? spec.url(for: items)) != nil
                            #expect(
                                check.accepts(items, lengths: &lengths) == expected,
                                "\(source) for \(url.prefix(60)), title \(title?.count ?? -1), text \(text?.count ?? -1)")
                            checked += 1
                        }
                    }
                }
            }
            #expect(checked > 500)
        }
    }

    @Test func aTemplateWithPlaceholdersInTheQueryIsDecidedByLength() throws {
        let spec = try OpenSpec(template: Template("https://share.example/post?u={url}&t={title}"))
        guard case .lengthBound(let fixed, let url, let title, let text) = TargetURLCheck(spec).rule else {
            Issue.record("not decided by length")
            return
        }
        #expect(fixed == "https://share.example/post?u=&t=".utf8.count)
        #expect((url, title, text) == (1, 1, 0))
        #expect(TargetURLCheck.Lengths.encodedLength("a b/é") == Template.percentEncode("a b/é").utf8.count)
    }
}
