import LucidModel

/// What an answer does to the device's journal: a value the client applies in one write of
/// the file, and hands back what it came to.
enum SyncEffect: Hashable, Sendable {
    struct Settled: Hashable, Sendable {
        var key: String
        var answer: LocalJournal.Answer
    }

    case nothing
    /// The outcomes of a batch.
    case settle([Settled])
    /// A change sent alone was accepted; the next one is marked in the same write.
    case acknowledge(key: String, version: Int, diff: ModelDiff)
    /// A change sent alone was refused for good; the next one is marked in the same write.
    case reject(key: String, status: Int, problem: ProblemDocument)
    /// An attempt the server failed while it answered others counts against the change.
    case countFailure(key: String, status: Int, problem: ProblemDocument, retryAfter: Int?)
    /// The versions since `since`.
    case receive(version: Int, since: Int, diff: ModelDiff)
    /// The model, fetched whole.
    case reset(Snapshot)

    /// What an effect came to.
    enum Result: Hashable, Sendable {
        case advanced(LocalJournal.Advance)
        case reset
        case counted(setAside: Bool, retryAfter: Int?)
        case done
    }

    /// Applies the effect to `journal`.
    func apply(to journal: inout LocalJournal) -> Result {
        switch self {
        case .nothing:
            return .done
        case .settle(let settled):
            return .advanced(journal.settle(settled.map { ($0.key, $0.answer) }))
        case .acknowledge(let key, let version, let diff):
            defer { journal.markNextSending() }
            return .advanced(journal.acknowledge(key, version: version, diff: diff))
        case .reject(let key, let status, let problem):
            journal.reject(key, status: status, problem: problem)
            journal.markNextSending()
            return .done
        case .countFailure(let key, let status, let problem, let retryAfter):
            return .counted(setAside: journal.countFailure(of: key, status: status, problem: problem), retryAfter: retryAfter)
        case .receive(let version, let since, let diff):
            return .advanced(journal.receive(version: version, from: since, diff: diff))
        case .reset(let snapshot):
            journal.reset(to: snapshot)
            return .reset
        }
    }
}
