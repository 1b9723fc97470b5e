// The locale `share` asks the broker for when --locale is not given: POSIX's LC_ALL, LC_MESSAGES, LANG.
enum LocaleEnvironment {
    /// The first non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG` (POSIX precedence for messages);
    /// nil for none, `C` or `POSIX` (untranslated). The broker's name lookup understands the
    /// POSIX form itself (`de_DE.UTF-8@euro` tries `de_DE@euro`, `de_DE`, `de`).
    static func locale(in environment: [String: String]) -> String? {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            let base = value.split(separator: ".", maxSplits: 1).first.map(String.init) ?? value
            return base == "C" || base == "POSIX" ? nil : value
        }
        return nil
    }
}
