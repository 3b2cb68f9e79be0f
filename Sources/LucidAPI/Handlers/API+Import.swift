import Foundation
import LucidHTTP
import LucidJSON
import LucidModel
import LucidStore
import LucidWire

extension API {
    /// The path of the import, which admission gives its own body limit and lane.
    static let importPath = "/v1/import"

    /// `POST /v1/import`: a Lucid or Day One export into the journal as one change (see
    /// ``DreamImport``), answering `{version, added, skipped}`. A file with any bad entry
    /// imports nothing (422, each named by pointer); a file whose dreams are all in the
    /// journal already makes no version.
    func importDreams(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        try call.requireMediaType()
        let body = call.request.body
        guard Self.isUTF8(body) else { throw Problem.syntax(.notUTF8) }
        let head = try journal { () throws(JournalError) in try journals.head(of: user.id) }
        let outcome: ImportReader.Outcome
        do throws(JSONSyntaxError) {
            outcome = try ImportReader.read(body, creature: head.model.favoriteCreature)
        } catch {
            throw Problem.syntax(error)
        }
        let file: ImportFile
        switch outcome {
        case .file(let read): file = read
        case .invalid(let problem): throw problem
        }
        // The reducer skips dreams the journal holds too (a write may land meanwhile); leaving
        // out the ones it holds now keeps them out of the version's stored actions.
        var seen = Set<UUID>(minimumCapacity: file.dreams.count)
        let fresh = file.dreams.filter { seen.insert($0.id).inserted && !head.model.dreams.contains(dreamWithID: $0.id) }
        let favorite = head.model.favoriteCreature == .default ? file.favoriteCreature : nil
        let action = Action.importDreams(DreamImport(dreams: fresh, favoriteCreature: favorite))
        // Only the count outlives this line: the file's dreams are not kept through the write.
        let count = file.count
        return try change(call, by: user, [action]) { commit in
            // The import is the change's one action, so what it inserted is what it added.
            let added = commit.created ? commit.diff.inserted.count : 0
            return Reply.object(version: commit.version) { writer in
                writer.key("version"); writer.int(commit.version)
                writer.key("added"); writer.int(added)
                writer.key("skipped"); writer.int(count - added)
            }
        }
    }

    /// Whether `bytes` are UTF-8, checked in place (a 32 MiB body is not copied into a `String`).
    static func isUTF8(_ bytes: [UInt8]) -> Bool {
        (try? UTF8Span(validating: bytes.span)) != nil
    }
}
