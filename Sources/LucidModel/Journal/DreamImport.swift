import Foundation

/// What an imported file brings into a journal (`POST /v1/import`), as one change: undoing
/// it takes the whole import back. Idempotent by id, so importing a file twice adds its
/// dreams once:
///
/// - every dream whose id the journal does not hold yet is appended, in the order given;
///   a dream whose id the journal holds is skipped (whatever its fields), and so is a
///   second dream with the same id in the list;
/// - `favoriteCreature`, if given, becomes the journal's favorite only while the journal's
///   favorite is still ``Creature/default``: an import never overrides a favorite the user
///   chose, and a journal that never chose one (a new account, say) takes the file's.
public struct DreamImport: Hashable, Sendable {
    /// The dreams of the file, in its order, each a whole dream with its own id and times.
    public var dreams: [Dream]
    /// The favorite creature the file names, if it names one.
    public var favoriteCreature: Creature?

    /// An import of `dreams`, with the file's favorite creature if it has one.
    public init(dreams: [Dream], favoriteCreature: Creature? = nil) {
        self.dreams = dreams
        self.favoriteCreature = favoriteCreature
    }
}

extension Model {
    /// Applies an import in place: every dream is checked first (errors point into the
    /// action, `/dreams/3/description`), then the new ones are appended at once.
    mutating func apply(_ batch: DreamImport) throws(ReduceError) {
        var errors: [FieldError] = []
        for (position, dream) in batch.dreams.enumerated() {
            errors += Dream.validate(dream).map { $0.nested(under: "/dreams/\(position)") }
        }
        guard errors.isEmpty else { throw .invalid(errors) }
        var seen = Set<UUID>(minimumCapacity: batch.dreams.count)
        var added: [Dream] = []
        for dream in batch.dreams where seen.insert(dream.id).inserted && !dreams.contains(dreamWithID: dream.id) {
            var kept = dream
            kept.tags = Dream.normalizedTags(dream.tags)
            added.append(kept)
        }
        // One append fills new chunks; inserting one by one would rebuild the last chunk each time.
        dreams.append(contentsOf: added)
        if let favorite = batch.favoriteCreature, favoriteCreature == .default {
            favoriteCreature = favorite
        }
    }
}
