import LucidWire

extension API {
    /// Why `path` must not be routed, or `nil` if it may be. A path holding a control
    /// character (a decoded `%00`, `%0A`, `%7F`, `%C2%85`, a line separator, a bidirectional
    /// override) names no resource of ours and is refused as it arrives, so no part of it
    /// can be cut off, hidden, or taken for something else further in.
    static func pathProblem(_ path: String) -> Problem? {
        guard path.unicodeScalars.contains(where: LogText.isUnsafe) else { return nil }
        return Problem(.badRequest, "The path holds a control character; no resource has such a name.")
    }
}
