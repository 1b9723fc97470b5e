// EventAttribution: a Private Click Measurement click as Browse receives it (API.md §11), checked once.

/// A click on an ad that led to a browsing session, after Apple's `UIEventAttribution`.
///
/// Construction is the validation (API.md §11): both URLs https, the destination on the same
/// site (registrable domain, `RegistrableDomain`) as the URL being opened, the description at
/// most `maximumDescriptionLength` characters. Keeping, proving and reporting clicks is issue 17.
public struct EventAttribution: Hashable, Sendable {
    public static let maximumDescriptionLength = 256

    public let sourceIdentifier: UInt8
    public let destinationURL: SharedURL
    public let reportEndpoint: SharedURL
    public let sourceDescription: String
    public let purchaser: String
    /// The registrable domain of `destinationURL` (equal to that of the URL browsed).
    public let destinationSite: String
    /// The registrable domain of `reportEndpoint`: the source site of the click.
    public let sourceSite: String

    /// Checks the fields against the URL the session opens.
    /// - Throws: `.invalidArgument` naming the field and what it must be.
    public init(
        sourceIdentifier: UInt8, destinationURL: String, reportEndpoint: String, sourceDescription: String,
        purchaser: String, opening browsed: SharedURL
    ) throws(ActivityError) {
        let destination = try Self.https(destinationURL, field: "destination_url")
        let endpoint = try Self.https(reportEndpoint, field: "report_endpoint")
        guard sourceDescription.count <= Self.maximumDescriptionLength else {
            throw .invalidArgument(
                "event_attribution: source_description is \(sourceDescription.count) characters long; at most \(Self.maximumDescriptionLength) are allowed"
            )
        }
        guard let destinationSite = RegistrableDomain.of(destination),
            let sourceSite = RegistrableDomain.of(endpoint)
        else { throw .invalidArgument("event_attribution: destination_url and report_endpoint need a host") }
        for (field, site) in [("destination_url", destinationSite), ("report_endpoint", sourceSite)]
        where !RegistrableDomain.isSite(site) {
            throw .invalidArgument(
                "event_attribution: \(field)'s site must be letters, digits, '.' and '-' (at most 253 bytes)")
        }
        guard let browsedSite = RegistrableDomain.of(browsed), browsedSite == destinationSite else {
            throw .invalidArgument(
                "event_attribution: destination_url is on the site '\(destinationSite)', not on the site of the URL being opened"
            )
        }
        self.sourceIdentifier = sourceIdentifier
        self.destinationURL = destination
        self.reportEndpoint = endpoint
        self.sourceDescription = sourceDescription
        self.purchaser = purchaser
        self.destinationSite = destinationSite
        self.sourceSite = sourceSite
    }

    private static func https(_ text: String, field: String) throws(ActivityError) -> SharedURL {
        let url: SharedURL
        do {
            url = try SharedURL(text)
        } catch {
            throw .invalidArgument("event_attribution: \(field) is not a URL: \(error.message)")
        }
        guard url.scheme == "https", url.host != nil else {
            throw .invalidArgument("event_attribution: \(field) must be an https URL")
        }
        return url
    }
}
