import Foundation
import LucidJSON
import LucidKit
import LucidModel
import LucidWire

/// What `lucid journal` prints: a readable table by default, the API's own JSON with `--json`.
enum JournalOutput {
    static func json(_ write: (inout JSONWriter) -> Void) {
        var writer = JSONWriter()
        write(&writer)
        StandardStream.output(String(decoding: writer.takeBytes(), as: UTF8.self) + "\n")
    }

    /// How the table and the messages name a dream: the last 8 digits of its id. They are
    /// random in every kind of UUID, where the first ones of a time-ordered id (as `add` and
    /// the server make) are its creation time: the first 8 change once every 65 seconds.
    static func shortID(_ id: UUID) -> String { String(id.uuidString.lowercased().suffix(8)) }

    /// The dream whose id is `text`, or ends with it (as ``shortID(_:)`` names it), or begins
    /// with it, if exactly one does.
    static func dreamID(_ text: String, in model: Model) throws -> UUID {
        let part = text.lowercased()
        let matches = model.dreams.filter {
            let id = $0.id.uuidString.lowercased()
            return id.hasSuffix(part) || id.hasPrefix(part)
        }
        guard matches.count == 1 else {
            throw JournalArguments.UsageError(matches.isEmpty ? "no dream has the id \(text)" : "\(text) names \(matches.count) dreams; give more of the id")
        }
        return matches[0].id
    }

    /// `text` as a line, or with `--json` an object of the members `members` writes.
    static func done(_ text: String, json: Bool, _ members: (inout JSONWriter) -> Void) {
        if json {
            self.json { writer in
                writer.beginObject()
                members(&writer)
                writer.endObject()
            }
        } else {
            StandardStream.output(text + "\n")
        }
    }

    static func signedIn(_ store: DeviceStore, json: Bool) {
        let account = store.account
        if json {
            self.json { writer in
                writer.beginObject()
                writer.key("server"); writer.string(account.server.absoluteString)
                writer.key("username"); writer.string(account.username)
                writer.key("pending"); writer.int(store.view.unsent.count)
                writer.endObject()
            }
        } else {
            StandardStream.output("Signed in as \(account.username) on \(account.server.absoluteString).\n")
        }
    }

    static func dream(_ dream: Dream, json: Bool) {
        if json {
            self.json { $0.value(dream) }
        } else {
            StandardStream.output(table([dream], pendingIDs: [dream.id]))
        }
    }

    static func step(_ command: String, _ outcome: StepOutcome, json: Bool) {
        let text = switch outcome {
        case .tookBack(let change): command == "undo" ? "Took back \(describe(change)) before it was sent." : "Put back \(describe(change))."
        case .queued: command == "undo" ? "Undo queued for the server." : "Redo queued for the server."
        case .cancelled: "Cancelled the \(command == "undo" ? "redo" : "undo") that was waiting to be sent."
        case .nothing: "Nothing to \(command)."
        }
        if json {
            self.json { writer in
                writer.beginObject()
                writer.key("outcome"); writer.string(text)
                writer.endObject()
            }
        } else {
            StandardStream.output(text + "\n")
        }
    }

    static func list(_ view: JournalView, json: Bool) {
        if json {
            self.json { writer in
                writer.beginObject()
                writer.key("version"); writer.int(view.version)
                writer.key("pending"); writer.int(view.unsent.count)
                writer.key("favoriteCreature"); writer.value(view.merged.favoriteCreature)
                writer.key("dreams"); writer.array(view.merged.dreams)
                writer.endObject()
            }
            return
        }
        StandardStream.output(table(Array(view.merged.dreams), pendingIDs: touched(view)))
        let pending = view.unsent.count
        var footer = "version \(view.version) · \(pending) pending"
        if !view.rejected.isEmpty { footer += " · \(view.rejected.count) rejected (see status)" }
        StandardStream.output(footer + " · favorite: \(view.merged.favoriteCreature.displayName)\n")
    }

    /// The dreams a pending change touches.
    private static func touched(_ view: JournalView) -> Set<UUID> {
        var ids: Set<UUID> = []
        for change in view.pending {
            switch change.action {
            case .addDream(let dream, _)?: ids.insert(dream.id)
            case .updateDream(let id, _, _)?, .moveDream(let id, _)?: ids.insert(id)
            case .duplicateDream(_, let newID, _)?: ids.insert(newID)
            default: break
            }
        }
        return ids
    }

    /// `*` marks a dream with a change not yet on the server.
    static func table(_ dreams: [Dream], pendingIDs: Set<UUID>) -> String {
        var lines = ["  ID        DAY         CREATURE         LUCID  DESCRIPTION"]
        for dream in dreams {
            let mark = pendingIDs.contains(dream.id) ? "*" : " "
            let id = shortID(dream.id)
            let creature = dream.creature.displayName.padding(toLength: 16, withPad: " ", startingAt: 0)
            let text = dream.description.replacingOccurrences(of: "\n", with: " ")
            let description = text.count > 60 ? String(text.prefix(59)) + "…" : text
            lines.append("\(mark) \(id)  \(dream.dreamtOn.iso8601)  \(creature) \(dream.lucid ? "yes  " : "     ")  \(description)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func status(_ view: JournalView, account: AccountRecord, json: Bool) {
        if json {
            self.json { writer in
                writer.beginObject()
                writer.key("server"); writer.string(account.server.absoluteString)
                writer.key("username"); writer.string(account.username)
                writer.key("signedIn"); writer.bool(account.token != nil && view.status.state != .needsSignIn)
                writer.key("version"); writer.int(view.version)
                writer.key("pending")
                writer.beginArray()
                for change in view.unsent {
                    writer.beginObject()
                    writer.key("key"); writer.string(change.key)
                    writer.key("action"); request(change.request, to: &writer)
                    if let error = view.noLongerApplying[change.key] { writer.key("noLongerApplies"); writer.string(reason(error)) }
                    writer.endObject()
                }
                writer.endArray()
                writer.key("rejected")
                writer.beginArray()
                for rejection in view.rejected {
                    writer.beginObject()
                    writer.key("key"); writer.string(rejection.change.key)
                    writer.key("action"); request(rejection.change.request, to: &writer)
                    writer.key("problem")
                    if let document = try? JSONParser.parse(rejection.problem.bytes) { writer.value(document) } else { writer.null() }
                    writer.endObject()
                }
                writer.endArray()
                writer.key("state"); writer.string(view.status.state.name)
                writer.key("lastError")
                if let error = view.status.lastError { writer.string(error) } else { writer.null() }
                writer.endObject()
            }
            return
        }
        var lines = ["\(account.username) on \(account.server.absoluteString) · version \(view.version) · \(view.status.state.name)"]
        if let error = view.status.lastError { lines.append("last error: \(error)") }
        let pending = view.unsent
        lines.append(pending.isEmpty ? "Nothing pending." : "Pending, in order:")
        for change in pending {
            let stale = view.noLongerApplying[change.key].map { " (no longer applies: \(reason($0)))" } ?? ""
            lines.append("  \(change.key)  \(describe(change))\(stale)")
        }
        if !view.rejected.isEmpty { lines.append("Rejected by the server (rejected dismiss|retry KEY):") }
        for rejection in view.rejected {
            lines.append("  \(rejection.change.key)  \(describe(rejection.change)): \(rejection.status) \(rejection.problem.detail)")
        }
        StandardStream.output(lines.joined(separator: "\n") + "\n")
    }

    /// Why an action does not apply, in a few words.
    static func reason(_ error: ReduceError) -> String {
        switch error {
        case .dreamNotFound(let id): "dream \(id.uuidString.lowercased()) is no longer in the journal"
        case .dreamAlreadyExists(let id): "dream \(id.uuidString.lowercased()) is in the journal already"
        case .copyIDTaken(let id): "the copy's id \(id.uuidString.lowercased()) is taken"
        case .invalid(let faults): faults.map { "\($0.pointer) \($0.detail)" }.joined(separator: "; ")
        }
    }

    static func synced(_ result: SyncResult, _ view: JournalView, json: Bool) {
        if json {
            self.json { writer in
                writer.beginObject()
                writer.key("result"); writer.string(result.name)
                writer.key("version"); writer.int(view.version)
                writer.key("pending"); writer.int(view.unsent.count)
                writer.key("rejected"); writer.int(view.rejected.count)
                writer.endObject()
            }
            return
        }
        switch result {
        case .synced: StandardStream.output("Synced: version \(view.version).\n")
        case .unreachable(let reason): StandardStream.error("Not synced, the changes are kept: \(reason)\n")
        case .needsSignIn: StandardStream.error("Not synced, the changes are kept: sign in again (lucid journal sign-in).\n")
        }
        for rejection in view.rejected {
            StandardStream.error("Rejected: \(describe(rejection.change)): \(rejection.status) \(rejection.problem.detail)\n")
        }
    }

    static func watched(_ view: JournalView, after last: JournalView?, json: Bool) {
        guard view.version != last?.version || view.unsent.count != last?.unsent.count || view.status.state != last?.status.state
        else { return }
        if json {
            self.json { writer in
                writer.beginObject()
                writer.key("version"); writer.int(view.version)
                writer.key("pending"); writer.int(view.unsent.count)
                writer.key("state"); writer.string(view.status.state.name)
                writer.endObject()
            }
        } else {
            StandardStream.output("version \(view.version) · \(view.unsent.count) pending · \(view.status.state.name)\n")
        }
    }

    /// An action as the server's history writes it; an undo or redo as its type and the
    /// version it is conditional on.
    private static func request(_ request: Change.Request, to writer: inout JSONWriter) {
        switch request {
        case .action(let action):
            writer.value(action)
        case .undo(let expected), .redo(let expected):
            writer.beginObject()
            if case .undo = request { writer.key("type"); writer.string("undo") } else { writer.key("type"); writer.string("redo") }
            writer.key("ifMatch")
            if let expected { writer.int(expected) } else { writer.null() }
            writer.endObject()
        }
    }

    static func describe(_ change: Change) -> String {
        switch change.request {
        case .action(.addDream(let dream, _)): "add \(shortID(dream.id)) “\(dream.description.prefix(40))”"
        case .action(.updateDream(let id, _, _)): "edit \(shortID(id))"
        case .action(.deleteDream(let id)): "delete \(shortID(id))"
        case .action(.moveDream(let id, let index)): "move \(shortID(id)) to \(index)"
        case .action(.duplicateDream(let id, _, _)): "duplicate \(shortID(id))"
        case .action(.setFavoriteCreature(let creature)): "favorite \(creature.displayName)"
        case .action(.importDreams): "import"
        case .undo: "undo on the server"
        case .redo: "redo on the server"
        }
    }
}

extension SyncResult {
    var name: String {
        switch self {
        case .synced: "synced"
        case .unreachable: "unreachable"
        case .needsSignIn: "needs-sign-in"
        }
    }
}
