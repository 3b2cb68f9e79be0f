public import LucidJSON
public import LucidModel

/// A journal's dreams in sections, as a table view shows them, and with `update` the batch
/// update that brings the sections of an earlier version to these: the answer of
/// `GET /v1/sections`, `{version, groupBy, sections}` and `since`, `diff` with an update.
public struct SectionsAnswer: JSONRepresentable, Hashable, Sendable {
    /// The batch update from the sections of version `since`.
    public struct Update: Hashable, Sendable {
        /// The version the client's sections are of.
        public var since: Int
        /// What turns those sections into the answer's.
        public var diff: SectionDiff

        /// The update `diff` from the sections of version `since`.
        public init(since: Int, diff: SectionDiff) {
            self.since = since
            self.diff = diff
        }
    }

    /// The version sectioned.
    public var version: Int
    /// How the dreams are grouped, written `groupBy`.
    public var grouping: Grouping
    /// The sections of the version, in the grouping's order.
    public var sections: [Section]
    /// The batch update from an earlier version's sections, when one was asked for.
    public var update: Update?

    /// An answer of these members.
    public init(version: Int, grouping: Grouping, sections: [Section], update: Update? = nil) {
        self.version = version
        self.grouping = grouping
        self.sections = sections
        self.update = update
    }

    /// The sections of `snapshot` by `grouping`, with the update from those of `old` if given.
    public init(_ snapshot: Snapshot, by grouping: Grouping, since old: Snapshot? = nil) {
        let sections = snapshot.model.sections(by: grouping)
        self.init(
            version: snapshot.version, grouping: grouping, sections: sections,
            update: old.map { Update(since: $0.version, diff: SectionDiff(from: $0.model.sections(by: grouping), to: sections)) })
    }

    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("version"); writer.int(version)
        writer.key("groupBy"); writer.string(grouping.rawValue)
        writer.key("sections"); writer.array(sections)
        if let update {
            writer.key("since"); writer.int(update.since)
            writer.key("diff"); writer.value(update.diff)
        }
        writer.endObject()
    }
}
