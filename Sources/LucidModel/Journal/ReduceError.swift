public import Foundation

/// One invalid field, named by a JSON pointer (RFC 6901) into the action that carried it.
public struct FieldError: Hashable, Sendable, Codable {
    public var pointer: String
    public var detail: String

    /// An error about the field at `pointer`.
    public init(pointer: String, detail: String) {
        self.pointer = pointer
        self.detail = detail
    }

    /// The same error, seen from an enclosing document in which this one sits at `prefix`.
    public func nested(under prefix: String) -> FieldError {
        FieldError(pointer: prefix + pointer, detail: detail)
    }
}

/// Why an action was refused. A refused action leaves the model as it was.
public enum ReduceError: Error, Hashable, Sendable {
    /// One or more fields break a rule; all of them are listed.
    case invalid([FieldError])
    /// The action names a dream the journal does not hold.
    case dreamNotFound(UUID)
    /// `addDream` with an id the journal already holds.
    case dreamAlreadyExists(UUID)
    /// `duplicateDream` with a `newID` the journal already holds.
    case copyIDTaken(UUID)
}

/// A refused action in a batch: which one, and why.
public struct BatchError: Error, Hashable, Sendable {
    /// The position of the refused action in the batch.
    public var index: Int
    public var error: ReduceError

    /// The refusal of the action at `index`.
    public init(index: Int, error: ReduceError) {
        self.index = index
        self.error = error
    }
}
