import Foundation
import LucidHTTP
import LucidModel
import LucidStore
import LucidWire

/// An export as the server sends it: a piece at a time, on a worker, as the client takes
/// it (see `BodySource`). The dreams come from the head model the export began with, an
/// immutable value that the head cache shares, so rendering them copies nothing; history
/// comes from the store a page at a time, oldest first. Memory stays about one piece and
/// two pages of history (see `HistoryPages`) however large the journal.
struct ExportBody<Renderer: ExportRenderer>: BodySource {
    /// Where the export stands.
    private enum Stage {
        case opening
        /// The index of the next dream.
        case dreams(Int)
        case history
        case closing
        case done
    }

    private let context: ExportContext
    private var renderer: Renderer
    /// The history to write after the dreams, if the export holds it.
    private var history: HistoryPages?
    /// Told when history cannot be read, for the log; the body is cut then.
    private let failed: @Sendable (JournalError) -> Void
    private var stage = Stage.opening

    init(
        _ context: ExportContext, renderer: Renderer, history: HistoryPages?,
        failed: @escaping @Sendable (JournalError) -> Void
    ) {
        self.context = context
        self.renderer = renderer
        self.history = history
        self.failed = failed
    }

    mutating func next(about size: Int) -> BodyPiece {
        while renderer.byteCount < size {
            switch stage {
            case .opening:
                renderer.open(context)
                stage = .dreams(0)
            case .dreams(let index):
                let dreams = context.snapshot.model.dreams
                if index < dreams.count {
                    renderer.dream(dreams[index])
                    stage = .dreams(index + 1)
                } else {
                    renderer.closeDreams()
                    if history != nil { renderer.openHistory() }
                    stage = history == nil ? .closing : .history
                }
            case .history:
                do throws(JournalError) {
                    let page = try history!.nextPage()
                    if page.isEmpty {
                        renderer.closeHistory()
                        stage = .closing
                    }
                    for entry in page { renderer.historyEntry(entry) }
                } catch {
                    failed(error)
                    return .cut
                }
            case .closing:
                renderer.close()
                stage = .done
            case .done:
                let bytes = renderer.takeBytes()
                return bytes.isEmpty ? .end : .bytes(bytes)
            }
        }
        return .bytes(renderer.takeBytes())
    }
}

/// A journal's versions from the first through `through`, oldest first, a page at a time,
/// read through the store's history, which pages newest first and bounds a page by the
/// size of its actions (but always holds one version). Each page asks for a window of
/// versions right after the last one read, and gets the whole window unless its actions
/// are too large: then it holds only the newest of the window. Those are kept for later
/// (one such page at most; another is dropped and read again), the window shrinks to the
/// versions before them, and after a whole page it grows again. So memory holds at most two
/// pages of about `StoreLimits.historyPageBytes` of actions each (or one larger version),
/// and few versions are read twice.
struct HistoryPages: Sendable {
    /// The most versions asked for at once (as `GET /v1/history` at most).
    static let pageLimit = 100

    let store: any JournalStore
    let user: UUID
    /// The newest version to read: the one exported.
    let through: Int
    /// The oldest version not handed out yet.
    private var next = 1
    /// How many versions the next page asks for.
    private var window = Self.pageLimit
    /// Versions read ahead, oldest first, that follow right after those before them.
    private var kept: [HistoryEntry] = []

    init(store: any JournalStore, user: UUID, through: Int) {
        self.store = store
        self.user = user
        self.through = through
    }

    /// The next versions, oldest first; empty once `through` has been read. The journal's
    /// versions up to `through` never change, so pages read at different moments fit.
    mutating func nextPage() throws(JournalError) -> [HistoryEntry] {
        while next <= through {
            if let first = kept.first?.version, first == next {
                defer { kept = [] }
                next = kept.last!.version + 1
                return kept
            }
            let end = kept.first?.version ?? through + 1
            let before = min(next + window, end)
            let page = try store.history(
                of: user, before: before, limit: before - next, maxActionBytes: StoreLimits.historyPageBytes)
            // Versions are numbered without gaps, so a whole page starts at `next`.
            guard let oldest = page.items.last?.version, oldest >= next else {
                throw JournalError.storage(StoreFailure(.other, "history of versions \(next) to \(before - 1) is missing"))
            }
            if oldest == next {
                next = before
                window = min(Self.pageLimit, window * 2)
                return page.items.reversed()
            }
            if kept.isEmpty { kept = page.items.reversed() }
            window = min(page.items.count, oldest - next)
        }
        return []
    }
}
