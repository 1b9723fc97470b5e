// The options of BrokerProxy.share (Broker1.Share's a{sv} options, API.md §10).
import ActivityBrokerInterface
import DBus

/// What an app may ask of the share sheet besides the items.
public struct ShareOptions: Hashable, Sendable {
    /// Activity ids, or `category:share` / `category:action`, not to offer.
    public var exclude: [String]
    /// The locale of the names in the sheet, e.g. `de_DE`; nil: the broker's.
    public var locale: String?
    /// Seconds for the whole job, the choosing included (default 300, at most 3600).
    public var timeout: UInt32?
    /// An XDG activation token (or X11 startup id) that lets the sheet take focus.
    public var activationToken: String?

    public init(exclude: [String] = [], locale: String? = nil, timeout: UInt32? = nil, activationToken: String? = nil) {
        self.exclude = exclude
        self.locale = locale
        self.timeout = timeout
        self.activationToken = activationToken
    }

    /// The `a{sv}` the broker receives: only the options that were set.
    var vardict: [String: Value] {
        var options: [String: Value] = [:]
        if !exclude.isEmpty { options[OptionKey.exclude] = .stringArray(exclude) }
        if let locale { options[OptionKey.locale] = .string(locale) }
        if let timeout { options[OptionKey.timeout] = .uint32(timeout) }
        if let activationToken { options[OptionKey.activationToken] = .string(activationToken) }
        return options
    }
}
