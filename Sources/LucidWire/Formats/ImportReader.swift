package import LucidJSON
package import LucidModel

/// A file to import, read: what the journal is to take from it.
package struct ImportFile: Equatable {
    /// The formats `POST /v1/import` reads.
    enum Format: Equatable {
        /// Lucid's own export: `{format: "lucid", formatVersion: 1, favoriteCreature, dreams}`.
        case lucid
        /// Day One's JSON export: `{metadata, entries}`.
        case dayOne
    }

    /// Which of the two the file is.
    var format: Format
    /// Every dream of the file, in its order, a repeated id as often as the file repeats it.
    package var dreams: [Dream]
    /// The favorite creature a Lucid export names.
    package var favoriteCreature: Creature?
    /// How many dreams or entries the file holds.
    package var count: Int
}

/// Reads an import body in one pass without holding it as a tree of values: the list of
/// dreams or entries is walked element by element, each element's known members are parsed
/// (each of at most `memberValueLimit` values) and turned into a `Dream` at once, and
/// everything else is skipped with only its syntax checked. What stays in memory is the
/// body and the dreams; once a problem is found, not even the dreams.
///
/// The format is the document's: one with a `format` member is Lucid's, else one with
/// `entries` is Day One's. Members neither format defines are ignored at the top level
/// (`metadata`, `exportedAt`, `version`, `history`), as are a Day One entry's (`photos`,
/// `location`, `richText`, …); a Lucid dream with a member a dream does not have is refused.
package struct ImportReader {
    /// The most dreams or entries one file may hold.
    static let entryLimit = 100_000
    /// The most values one member that is read may hold (a tag list of 1,000 tags); a
    /// bigger one is refused without being built.
    static let memberValueLimit = 1_000

    /// The top-level members read; any other is skipped.
    private static let topLevel: Set<String> = ["dreams", "entries", "format", "formatVersion", "favoriteCreature"]

    /// What reading ends in: the file, or the 422 naming every bad field found.
    package enum Outcome {
        case file(ImportFile)
        case invalid(Problem)
    }

    /// One list of the document (`dreams` or `entries`), read as the format it would have.
    private struct List {
        /// The problems of its elements, pointed at from the document's root.
        var reader = FieldReader()
        /// Its dreams so far; emptied at the first problem, since nothing will be imported.
        var dreams: [Dream] = []
        /// How many elements it has.
        var count = 0
    }

    /// Where reading stands in the body.
    private var parser: JSONParser
    /// The creature of every dream made from a Day One entry.
    private let creature: Creature
    /// The `dreams` member, read as a Lucid export's, if the document has one.
    private var lucid: List?
    /// The `entries` member, read as a Day One export's, if the document has one.
    private var dayOne: List?
    /// The small top-level members a Lucid export has; `nil` for one too big to read.
    private var header: [String: JSONValue?] = [:]

    private init(_ bytes: [UInt8], creature: Creature) {
        parser = JSONParser.pieces(bytes)
        self.creature = creature
    }

    /// Reads `bytes`, which must be UTF-8; Day One entries become dreams of `creature`.
    /// Throws for a body that is not one JSON document.
    package static func read(_ bytes: [UInt8], creature: Creature) throws(JSONSyntaxError) -> Outcome {
        var reader = ImportReader(bytes, creature: creature)
        return try reader.read()
    }

    private mutating func read() throws(JSONSyntaxError) -> Outcome {
        let kind = try parser.kind()
        guard kind == .object else {
            try parser.skip()
            try parser.finish()
            return Self.refuse("", "must be an object (a Lucid or a Day One export), not \(kind.description)")
        }
        try parser.openObject()
        var names = Set<String>(), first = true
        while let name = try parser.nextMember(first: first) {
            first = false
            if Self.topLevel.contains(name), !names.insert(name).inserted { throw parser.duplicate(name) }
            switch name {
            case "dreams": lucid = try readList(.lucid, at: "/dreams")
            case "entries": dayOne = try readList(.dayOne, at: "/entries")
            case "format", "formatVersion", "favoriteCreature":
                header[name] = .some(try parser.value(atMost: Self.memberValueLimit))
            default: try parser.skip()
            }
        }
        try parser.finish()
        if header["format"] != nil { return lucidFile() }
        if let dayOne { return Self.outcome(dayOne, .dayOne, favorite: nil, header: FieldReader()) }
        return Self.refuse("", "must be a Lucid export (with format) or a Day One export (with entries)")
    }

    /// A Lucid export's outcome: its format and version first (a file of another version
    /// is not read further), then its favorite creature and dreams.
    private func lucidFile() -> Outcome {
        var reader = FieldReader()
        if case .string("lucid")?? = header["format"] {} else {
            reader.fail("/format", "must be \"lucid\" (a Day One export has no format member)")
        }
        if case .number(let text)?? = header["formatVersion"], JSONInteger(text) == .value(1) {} else {
            reader.fail("/formatVersion", header["formatVersion"] == nil ? "is required" : "must be 1, the version of Lucid's format this server reads")
        }
        guard reader.errors.isEmpty else { return .invalid(reader.problem) }
        var favorite: Creature?
        switch header["favoriteCreature"] {
        case nil: break
        case .some(nil): reader.fail("/favoriteCreature", "must be a creature")
        case .some(let value?): favorite = reader.creature(value, at: "/favoriteCreature")
        }
        guard let lucid else {
            reader.fail("/dreams", "is required")
            return .invalid(reader.problem)
        }
        return Self.outcome(lucid, .lucid, favorite: favorite, header: reader)
    }

    private static func outcome(_ list: List, _ format: ImportFile.Format, favorite: Creature?, header: FieldReader) -> Outcome {
        guard header.failures == 0, list.reader.failures == 0 else {
            return .invalid(Problem.invalid(
                header.errors + list.reader.errors, omitted: header.omitted + list.reader.omitted))
        }
        return .file(ImportFile(format: format, dreams: list.dreams, favoriteCreature: favorite, count: list.count))
    }

    private static func refuse(_ pointer: String, _ detail: String) -> Outcome {
        .invalid(Problem.invalid([FieldError(pointer: pointer, detail: detail)]))
    }

    /// Reads the list at `pointer` element by element, each as `format` has it.
    private mutating func readList(_ format: ImportFile.Format, at pointer: String) throws(JSONSyntaxError) -> List {
        var list = List()
        let kind = try parser.kind()
        guard kind == .array else {
            try parser.skip()
            list.reader.fail(pointer, "must be an array, not \(kind.description)")
            return list
        }
        try parser.openArray()
        while try parser.nextElement(first: list.count == 0) {
            defer { list.count += 1 }
            guard list.count < Self.entryLimit else {
                if list.count == Self.entryLimit { list.reader.fail(pointer, "must hold at most \(Self.entryLimit) items") }
                try parser.skip()
                continue
            }
            let at = "\(pointer)/\(list.count)"
            let known = format == .lucid ? FieldReader.lucidDreamFields : FieldReader.dayOneFields
            guard let members = try readObject(at: at, known: known, refusingOthers: format == .lucid, into: &list.reader)
            else { continue }
            let dream = switch format {
            case .lucid: list.reader.lucidDream(members, at: at)
            case .dayOne: list.reader.dayOneDream(members, at: at, creature: creature)
            }
            // Once anything is wrong nothing is imported: the dreams read so far can go.
            if list.reader.failures > 0 {
                list.dreams = []
            } else if let dream {
                list.dreams.append(dream)
            }
        }
        return list
    }

    /// The members named in `known` of the object that begins here, each parsed; the others
    /// are skipped, and refused if `refusingOthers`. `nil`, with the problem recorded, for a
    /// value that is no object or a known member of more than `memberValueLimit` values.
    private mutating func readObject(
        at pointer: String, known: Set<String>, refusingOthers: Bool, into reader: inout FieldReader
    ) throws(JSONSyntaxError) -> [String: JSONValue]? {
        let kind = try parser.kind()
        guard kind == .object else {
            try parser.skip()
            reader.fail(pointer, "must be an object, not \(kind.description)")
            return nil
        }
        try parser.openObject()
        var members: [String: JSONValue] = [:], read = Set<String>(), whole = true, first = true
        while let name = try parser.nextMember(first: first) {
            first = false
            guard known.contains(name) else {
                try parser.skip()
                if refusingOthers { reader.fail(pointer + "/" + FieldReader.escape(name), "is not a known field") }
                continue
            }
            guard read.insert(name).inserted else { throw parser.duplicate(name) }
            if let value = try parser.value(atMost: Self.memberValueLimit) {
                members[name] = value
            } else {
                reader.fail(pointer + "/" + FieldReader.escape(name), "must hold at most \(Self.memberValueLimit) values")
                whole = false
            }
        }
        return whole ? members : nil
    }
}
