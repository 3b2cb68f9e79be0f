import Foundation
import LucidHTTP
import LucidModel
import LucidStore
import LucidWire

// Every domain and store error as a problem: exhaustive switches with no `default`,
// so a new case cannot ship unmapped.

extension Problem {
    /// A refused action. `prefix` locates the action in the request body ("" for a REST
    /// body that is the action's payload, "/actions/3" in a batch).
    static func refused(_ error: ReduceError, at prefix: String) -> Problem {
        switch error {
        case .invalid(let errors):
            return .invalid(errors, under: prefix)
        case .dreamNotFound(let id):
            return Problem(.notFound, "There is no dream \(id.uuidString.lowercased()) in this journal.",
                           faults: prefix.isEmpty ? [] : [Fault(location: .pointer(prefix + "/id"), detail: "no such dream")])
        case .dreamAlreadyExists(let id):
            return Problem(.dreamExists, "The journal already holds a dream \(id.uuidString.lowercased()).",
                           faults: [Fault(location: .pointer(prefix + (prefix.isEmpty ? "/id" : "/dream/id")),
                                          detail: "already in the journal")])
        case .copyIDTaken(let id):
            return Problem(.dreamExists, "The journal already holds a dream \(id.uuidString.lowercased()); choose another id for the copy.",
                           faults: [Fault(location: .pointer(prefix + "/newId"), detail: "already in the journal")])
        }
    }

    /// A journal error; `locate` says where the action at an index of the batch sits in the body.
    static func journal(_ error: JournalError, locate: (Int) -> String) -> Problem {
        switch error {
        case .versionMismatch(let expected, let actual):
            var problem = Problem(.preconditionFailed, "If-Match named version \(expected), but the journal is at version \(actual).",
                                  headers: [("ETag", "\"\(actual)\"")])
            // A version the journal has left is left for good; one it has not reached yet may come.
            problem.concernsJournal = expected > actual
            return problem
        case .rejected(let batch):
            var problem = refused(batch.error, at: locate(batch.index))
            problem.concernsJournal = true
            return problem
        case .nothingToUndo:
            return Problem(.nothingToUndo, "Every change in this journal is already undone.")
        case .nothingToRedo:
            return Problem(.nothingToRedo, "There is no undone change to redo.")
        case .versionNotFound(let version):
            return Problem(.notFound, "The journal has no version \(version).")
        case .noSuchUser:
            // The account was deleted while the request was on its way: its token is no one's now.
            return API.revokedToken
        case .storage(let failure):
            return storage(failure)
        }
    }

    static func account(_ error: AccountError) -> Problem {
        switch error {
        case .usernameTaken:
            return Problem(.usernameTaken, "That username is taken.",
                           faults: [Fault(location: .pointer("/username"), detail: "is taken")])
        case .passwordChanged:
            // The password checked was right until a change a moment ago: it is wrong now.
            return API.wrongCredentials
        case .noSuchSession:
            return API.revokedToken
        case .storage(let failure):
            return storage(failure)
        }
    }

    /// A database failure: passing ones (busy, full, read-only) ask the client to retry;
    /// anything else is an internal error whose detail stays in the log.
    static func storage(_ failure: StoreFailure) -> Problem {
        var problem: Problem
        switch failure.kind {
        case .busy, .full, .readOnly:
            problem = Problem(.unavailable, "The journal cannot be written right now; nothing was changed.",
                              headers: [("Retry-After", "1")])
        case .constraint, .other:
            problem = Problem(.internal, "Something went wrong on our side; nothing was changed.")
        }
        problem.logDetail = failure.description
        return problem
    }
}

extension Problem {
    /// The 400 for a head the server refused before reading it further (RFC 9112 asks a
    /// server to answer these 400 and close the connection).
    static func malformedHead(_ flaw: HeadFlaw) -> Problem {
        switch flaw {
        case .invalidRequestLine:
            Problem(.badRequest, "The request line holds a NUL byte, or its target a space or a control character.")
        case .invalidField:
            Problem(.badRequest,
                    "A header field's name is not a token (no space may come before its colon), its value holds a NUL byte, a CR or another control character, or it is folded onto the next line.")
        case .conflictingFraming:
            Problem(.badRequest, "Send one Content-Length or one Transfer-Encoding field, not several.")
        case .missingHost:
            Problem(.badRequest, "An HTTP/1.1 request needs a Host field.")
        case .invalidHost:
            Problem(.badRequest, "Send one Host field, with a host and an optional port.")
        case .foreignAuthority:
            Problem(.badRequest, "The request-target names another authority than Host; this server answers only for its own.")
        }
    }
}
