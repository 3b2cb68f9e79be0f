public import Foundation

extension Model {
    /// The model after `action`: pure, with no I/O, clock or randomness.
    /// Validates everything first and changes nothing when it throws.
    public func reduced(by action: Action) throws(ReduceError) -> Model {
        var next = self
        try next.apply(action)
        return next
    }

    /// The model after every action of `actions` in order, or an error naming the first
    /// refused one; a batch applies whole or not at all.
    public func reduced(by actions: [Action]) throws(BatchError) -> Model {
        var next = self
        for (index, action) in actions.enumerated() {
            do {
                try next.apply(action)
            } catch {
                throw BatchError(index: index, error: error)
            }
        }
        return next
    }

    /// Applies `action` in place. Every check comes before the first mutation, so a
    /// thrown error leaves `self` untouched.
    public mutating func apply(_ action: Action) throws(ReduceError) {
        switch action {
        case .addDream(let dream, let index):
            var errors = Dream.validate(dream).map { $0.nested(under: "/dream") }
            if let index, !(0...dreams.count).contains(index) {
                errors.append(FieldError(pointer: "/index", detail: "must be between 0 and \(dreams.count)"))
            }
            guard errors.isEmpty else { throw .invalid(errors) }
            guard self.index(of: dream.id) == nil else { throw .dreamAlreadyExists(dream.id) }
            var added = dream
            added.tags = Dream.normalizedTags(dream.tags)
            dreams.insert(added, at: index ?? dreams.count)

        case .updateDream(let id, let changes, let at):
            guard let position = self.index(of: id) else { throw .dreamNotFound(id) }
            let errors = Dream.validate(changes)
            guard errors.isEmpty else { throw .invalid(errors) }
            var changed = changes.applied(to: dreams[position])
            guard changed != dreams[position] else { return }
            changed.updatedAt = at
            dreams[position] = changed

        case .deleteDream(let id):
            guard let position = self.index(of: id) else { throw .dreamNotFound(id) }
            dreams.remove(at: position)

        case .moveDream(let id, let toIndex):
            guard let position = self.index(of: id) else { throw .dreamNotFound(id) }
            guard dreams.indices.contains(toIndex) else {
                throw .invalid([FieldError(pointer: "/toIndex", detail: "must be between 0 and \(dreams.count - 1)")])
            }
            guard toIndex != position else { return }
            dreams.insert(dreams.remove(at: position), at: toIndex)

        case .duplicateDream(let id, let newID, let at):
            guard let position = self.index(of: id) else { throw .dreamNotFound(id) }
            let copy = dreams[position].duplicate(id: newID, at: at)
            let errors = Dream.validate(DreamChanges(description: copy.description))
            guard errors.isEmpty else {
                throw .invalid(errors.map { FieldError(pointer: $0.pointer, detail: "of the copy (with \"\(Dream.copySuffix)\" appended) \($0.detail)") })
            }
            guard self.index(of: newID) == nil else { throw .copyIDTaken(newID) }
            dreams.insert(copy, at: position + 1)

        case .setFavoriteCreature(let creature):
            favoriteCreature = creature

        case .importDreams(let batch):
            try apply(batch)
        }
    }
}

extension Dream {
    /// What a copy's description ends with.
    public static let copySuffix = " (copy)"

    /// A copy of this dream with id `id`, made `at`: the same fields (tags and `lucid`
    /// included), the description marked as a copy, and new timestamps. Not validated.
    public func duplicate(id: UUID, at: Timestamp) -> Dream {
        Dream(
            id: id, description: description + Self.copySuffix, creature: creature, effects: effects,
            numberOfCreatures: numberOfCreatures, dreamtOn: dreamtOn, lucid: lucid, tags: tags, createdAt: at)
    }

    /// The rules a whole dream must keep, as errors with pointers relative to the dream.
    public static func validate(_ dream: Dream) -> [FieldError] {
        validate(DreamChanges(description: dream.description, numberOfCreatures: dream.numberOfCreatures, tags: dream.tags))
    }

    /// The rules the changed fields must keep; fields left out are not checked.
    public static func validate(_ changes: DreamChanges) -> [FieldError] {
        var errors: [FieldError] = []
        if let description = changes.description {
            if description.allSatisfy(\.isWhitespace) {
                errors.append(FieldError(pointer: "/description", detail: "must not be empty or only white space"))
            } else if description.utf8.count > descriptionLimit, description.count > descriptionLimit {
                // (A character is at least a byte: only a text of more bytes than the limit can
                // have more characters, and counting them walks every grapheme.)
                errors.append(FieldError(
                    pointer: "/description", detail: "must be at most \(descriptionLimit) characters"))
            } else if description.utf8.count > descriptionByteLimit {
                errors.append(FieldError(
                    pointer: "/description", detail: "must be at most \(descriptionByteLimit) bytes of UTF-8"))
            } else if description.utf8.contains(0) {
                // No text means a NUL, and PostgreSQL's text cannot hold one: every store refuses it alike.
                errors.append(FieldError(pointer: "/description", detail: "must not contain the character U+0000"))
            }
        }
        if let count = changes.numberOfCreatures, !creatureRange.contains(count) {
            errors.append(FieldError(
                pointer: "/numberOfCreatures",
                detail: "must be between \(creatureRange.lowerBound) and \(creatureRange.upperBound)"))
        }
        if let tags = changes.tags { errors += validate(tags: tags) }
        return errors
    }
}
