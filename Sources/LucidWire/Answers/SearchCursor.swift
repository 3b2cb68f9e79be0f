/// Where the next page of a search begins: the version the first page searched, and how
/// many hits the pages before it held. Written `<version>.<offset>`, as `nextCursor`.
public struct SearchCursor: Hashable, Sendable, CustomStringConvertible {
    /// The version every page of the search comes from.
    public var version: Int
    /// How many hits come before the page.
    public var offset: Int

    /// The page of the search of `version` after `offset` hits.
    public init(version: Int, offset: Int) {
        self.version = version
        self.offset = offset
    }

    /// `text` read as a cursor that a journal whose newest version is `newest` could have
    /// given out; the 400 naming `cursor` for any other.
    public init(_ text: String, newest: Int) throws(Problem) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let version = Int(parts[0]), let offset = Int(parts[1]),
              (0...newest).contains(version), offset >= 0
        else { throw Problem.badParameter("cursor", "is not a cursor this journal gave out") }
        self.init(version: version, offset: offset)
    }

    /// `<version>.<offset>`.
    public var description: String { "\(version).\(offset)" }
}
