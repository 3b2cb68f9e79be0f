import LucidHTTP
import LucidWire

/// What a read whose answer is a pure function of the journal at one version answers, as its
/// handler decides it from the request and the journal's head, before rendering anything:
/// the API then serves the answer kept for its key (see ``RenderedAnswers``), or renders and
/// keeps it. At admission, where nothing may be rendered, a ready answer is sent at once and
/// any other leaves the request to a worker.
enum JournalRead {
    /// An answer that costs nothing to make (a `304`), made for each request.
    case ready(Response)
    /// The answer at `key`: the one kept, or else what `render` makes.
    case rendered(RenderedAnswers.Key, render: () throws(Problem) -> Rendering)

    /// What a read's `render` made.
    enum Rendering {
        /// The answer at the key's version: kept for the requests after.
        case ofVersion(Response)
        /// An answer read while the journal moved past the key's version (a page of history
        /// read as a write landed): sent as it is, as it always was, and never kept.
        case moved(Response)
    }
}
