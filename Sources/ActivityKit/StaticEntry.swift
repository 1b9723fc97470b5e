// StaticEntry: what one manifest file holds: an activity, or a mask (an empty file).

/// The contents of one manifest file in a `StaticLayer`.
public enum StaticEntry: Hashable, Sendable {
    /// A decoded manifest.
    case activity(Activity)
    /// An empty file: hides lower files of the same name and adds nothing.
    case masked
}
