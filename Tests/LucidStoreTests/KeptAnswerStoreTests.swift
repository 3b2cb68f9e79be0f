import Foundation
import LucidMigrations
import LucidModel
import LucidPostgres
@testable import LucidSQLite
import LucidSQLiteCore
import Testing
@testable import LucidStore

/// Kept answers of requests sent with an idempotency key, in every kind of store: an answer
/// is kept with the write it answers or not at all, found by its user and key while it is
/// young enough, and deleted oldest first.
@Suite struct KeptAnswerStoreTests {
    let user = UUID()
    var clock = TestClock()

    /// A keyed request whose fingerprint is 32 copies of `byte`.
    mutating func request(_ key: String, _ byte: UInt8 = 1) -> KeyedRequest {
        KeyedRequest(key: key, fingerprint: Array(repeating: byte, count: 32), at: clock.now())
    }

    /// The answer a keyed write renders: it names the commit, so a kept answer shows which one it answered.
    static func answer(to commit: Commit) -> KeptAnswer {
        KeptAnswer(
            status: commit.created ? 201 : 200, headers: [.init(name: "ETag", value: "\"\(commit.version)\"")],
            body: Array("version \(commit.version), \(commit.model.dreams.count) dreams".utf8))
    }

    /// The outcome `request` keeps with `answer`.
    static func outcome(_ request: KeyedRequest, _ answer: KeptAnswer) -> KeptOutcome {
        KeptOutcome(fingerprint: request.fingerprint, answer: answer, at: request.at)
    }

    mutating func dream(_ description: String) -> Dream {
        Dream(id: UUID(), description: description, creature: .shark, createdAt: clock.now())
    }

    @Test(arguments: StoreKind.allCases)
    mutating func aReceiptKeepsTheAnswerToTheVersionItsWriteMade(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let (add, undo, redo) = (request("add"), request("undo"), request("redo"))
        var receipts: [(KeyedRequest, Receipt)] = []
        func receipt(_ request: KeyedRequest) -> Receipt {
            let receipt = Receipt(for: request, render: Self.answer)
            receipts.append((request, receipt))
            return receipt
        }
        let added = try store.apply([.addDream(dream("a lantern"))], to: user, at: clock.now(), expecting: 0, keeping: receipt(add))
        let undone = try store.undo(of: user, at: clock.now(), expecting: 1, keeping: receipt(undo))
        let redone = try store.redo(of: user, at: clock.now(), expecting: 2, keeping: receipt(redo))
        #expect(receipts.map { $0.1.kept } == [added, undone, redone].map { Self.answer(to: $0) as KeptAnswer? })

        for reopened in [store, try database.open()] {
            for (request, receipt) in receipts {
                #expect(try reopened.outcome(of: request.key, for: user, notBefore: request.at) == Self.outcome(request, receipt.kept!))
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    mutating func aChangeThatMakesNoVersionKeepsItsAnswerToo(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        _ = try store.apply([.setFavoriteCreature(.dragon)], to: user, at: clock.now())
        let same = request("same")
        let receipt = Receipt(for: same, render: Self.answer)
        let commit = try store.apply([.setFavoriteCreature(.dragon)], to: user, at: clock.now(), expecting: 1, keeping: receipt)
        #expect(commit == Commit(version: 1, model: Model(favoriteCreature: .dragon), diff: ModelDiff(), created: false))
        #expect(receipt.kept == Self.answer(to: commit))
        #expect(try database.open().outcome(of: "same", for: user, notBefore: same.at) == Self.outcome(same, Self.answer(to: commit)))
    }

    @Test(arguments: StoreKind.allCases)
    mutating func aRefusedWriteKeepsNothingUntilItsAnswerIsKeptAlone(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        _ = try store.apply([.setFavoriteCreature(.dragon)], to: user, at: clock.now())
        let (missing, stale, redo) = (request("missing"), request("stale"), request("redo"))
        let receipts = [missing, stale, redo].map { Receipt(for: $0, render: Self.answer) }
        let gone = UUID(), at = clock.now()
        #expect(throws: JournalError.rejected(BatchError(index: 0, error: .dreamNotFound(gone)))) {
            try store.apply([.deleteDream(id: gone)], to: self.user, at: at, expecting: nil, keeping: receipts[0])
        }
        #expect(throws: JournalError.versionMismatch(expected: 0, actual: 1)) {
            try store.undo(of: self.user, at: at, expecting: 0, keeping: receipts[1])
        }
        #expect(throws: JournalError.nothingToRedo) { try store.redo(of: self.user, at: at, expecting: 1, keeping: receipts[2]) }
        #expect(receipts.map(\.kept) == [nil, nil, nil])
        for key in ["missing", "stale", "redo"] {
            #expect(try store.outcome(of: key, for: user, notBefore: missing.at) == nil)
        }
        #expect(try store.head(of: user).version == 1)

        // A refusal the same request would always get again is kept on its own.
        let refusal = KeptAnswer(status: 422, headers: [.init(name: "Content-Type", value: "application/problem+json")], body: [])
        try store.keep(refusal, for: missing, of: user)
        #expect(try database.open().outcome(of: "missing", for: user, notBefore: missing.at) == Self.outcome(missing, refusal))
        #expect(try store.head(of: user).version == 1)
    }

    @Test(arguments: StoreKind.allCases, ["versions", "idempotency_keys"])
    mutating func aFailedWriteKeepsNeitherTheVersionNorTheAnswer(kind: StoreKind, table: String) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        _ = try store.apply([.setFavoriteCreature(.dragon)], to: user, at: clock.now())
        let head = try store.head(of: user)
        try database.refuseWrites(to: table)
        let keyed = request("keyed")
        let receipt = Receipt(for: keyed, render: Self.answer)
        let at = clock.now()
        #expect {
            _ = try store.apply([.setFavoriteCreature(.crusty)], to: self.user, at: at, expecting: 1, keeping: receipt)
        } throws: { error in
            guard case JournalError.storage(let failure) = error else { return false }
            return failure.kind == .constraint
        }
        #expect(receipt.kept == nil)
        for reopened in [store, try database.open()] {
            #expect(try reopened.head(of: user) == head)
            #expect(try reopened.outcome(of: "keyed", for: user, notBefore: keyed.at) == nil)
        }
        #expect(try database.count("idempotency_keys") == 0)

        // Once writes go through, the same request is answered and kept.
        try database.allowWrites(to: table)
        let commit = try store.apply([.setFavoriteCreature(.crusty)], to: user, at: at, expecting: 1, keeping: receipt)
        #expect(commit.version == 2 && receipt.kept == Self.answer(to: commit))
        #expect(try store.outcome(of: "keyed", for: user, notBefore: keyed.at) == Self.outcome(keyed, Self.answer(to: commit)))
    }

    @Test(arguments: StoreKind.allCases)
    mutating func aKeyIsItsUsersAndIsForgottenOnceTooOld(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let first = request("k")
        let answer = KeptAnswer(status: 400, headers: [], body: Array("first".utf8))
        try store.keep(answer, for: first, of: user)
        #expect(try store.outcome(of: "k", for: user, notBefore: first.at) == Self.outcome(first, answer))
        // Another user's key of the same name, and a use older than asked for, are not found.
        #expect(try store.outcome(of: "k", for: UUID(), notBefore: first.at) == nil)
        #expect(try store.outcome(of: "K", for: user, notBefore: first.at) == nil)
        let later = Timestamp(millisecondsSince1970: first.at.millisecondsSince1970 + 1)
        #expect(try store.outcome(of: "k", for: user, notBefore: later) == nil)

        // A new use of a forgotten key replaces what the old one left.
        let second = request("k", 2)
        let another = KeptAnswer(status: 201, headers: [.init(name: "Location", value: "/v1/dreams/1")], body: Array("second".utf8))
        try store.keep(another, for: second, of: user)
        #expect(try database.open().outcome(of: "k", for: user, notBefore: first.at) == Self.outcome(second, another))
        #expect(try database.count("idempotency_keys") == 1)
    }

    @Test(arguments: StoreKind.allCases)
    mutating func keysAreDeletedOldestFirstInBatches(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let other = UUID()
        var requests: [KeyedRequest] = []
        for index in 0..<5 {
            let keyed = request("key \(index)")
            try store.keep(KeptAnswer(status: 400, headers: [], body: []), for: keyed, of: index.isMultiple(of: 2) ? user : other)
            requests.append(keyed)
        }
        let cutoff = requests[3].at
        let start = requests[0].at
        func remaining() throws -> [String] {
            try requests.indices.filter { index in
                try store.outcome(of: "key \(index)", for: index.isMultiple(of: 2) ? user : other, notBefore: start) != nil
            }.map { "key \($0)" }
        }
        // Used before the cutoff: keys 0, 1 and 2, whoever's they are.
        #expect(try store.deleteKeys(usedBefore: cutoff, limit: 2) == 2)
        #expect(try remaining() == ["key 2", "key 3", "key 4"])
        #expect(try store.deleteKeys(usedBefore: cutoff, limit: 2) == 1)
        #expect(try store.deleteKeys(usedBefore: cutoff, limit: 2) == 0)
        #expect(try remaining() == ["key 3", "key 4"])
    }

    /// Issue 33: the answer a keyed write kept with its version is known for good; a refusal
    /// kept alone is forgotten after the key lifetime, and only it is swept.
    @Test(arguments: StoreKind.allCases)
    mutating func anAnswerKeptWithItsVersionOutlivesTheKeyLifetime(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let store = try database.open()
        let (add, same, refused) = (request("add"), request("same"), request("refused"))
        let added = try store.apply(
            [.addDream(dream("a lantern"))], to: user, at: clock.now(), expecting: nil, keeping: Receipt(for: add, render: Self.answer))
        let unchanged = try store.apply(
            [.setFavoriteCreature(Model().favoriteCreature)], to: user, at: clock.now(), expecting: nil,
            keeping: Receipt(for: same, render: Self.answer))
        #expect(!unchanged.created)
        let refusal = KeptAnswer(status: 400, headers: [], body: Array("bad".utf8))
        try store.keep(refusal, for: refused, of: user)

        // A year later, and after every sweep: the two writes' answers, and no refusal.
        let yearLater = Timestamp(millisecondsSince1970: clock.now().millisecondsSince1970 + 365 * 86_400_000)
        #expect(try store.deleteKeys(usedBefore: yearLater, limit: 100) == 1)
        for reopened in [store, try database.open()] {
            #expect(try reopened.outcome(of: "add", for: user, notBefore: yearLater) == Self.outcome(add, Self.answer(to: added)))
            #expect(try reopened.outcome(of: "same", for: user, notBefore: yearLater) == Self.outcome(same, Self.answer(to: unchanged)))
            #expect(try reopened.outcome(of: "refused", for: user, notBefore: refused.at) == nil)
        }

        // A refusal kept under a key that made a version never replaces its answer.
        try store.keep(refusal, for: request("add", 9), of: user)
        #expect(try store.outcome(of: "add", for: user, notBefore: yearLater) == Self.outcome(add, Self.answer(to: added)))
    }
}

extension KeptAnswerStoreTests {
    /// Keys kept before answers had versions: a success is kept for good from its `ETag`, a
    /// refusal and a keyed sign-in's session still age out.
    @Test(arguments: StoreKind.allCases)
    func keysKeptBeforeTheMigrationLastIfTheyAnsweredAWrite(kind: StoreKind) throws {
        let database = try StoreDatabase(kind)
        let user = UUID().uuidString
        let fingerprint = String(repeating: "07", count: 32)
        let (blob, empty) = kind == .sqlite ? ("x'\(fingerprint)'", "x''") : ("'\\x\(fingerprint)'", "'\\x'")
        let rows = """
            INSERT INTO idempotency_keys (user_id, key, fingerprint, created_at, status, headers, body, session) VALUES
            ('\(user)', 'added', \(blob), 1000, 201, 'Content-Type: application/json\nETag: "3-ab"\n', \(empty), NULL),
            ('\(user)', 'deleted', \(blob), 1000, 204, 'ETag: "4"\n', \(empty), NULL),
            ('\(user)', 'refused', \(blob), 1000, 400, 'Content-Type: application/problem+json\n', \(empty), NULL),
            ('\(user)', 'signed in', \(blob), 1000, 201, '', \(empty), 'token hash');
            """
        switch kind {
        case .sqlite:
            let connection = try Connection(path: database.location)
            try connection.migrate(to: Array(Migration.embedded.prefix { $0.name < "0012" }))
            try connection.execute(rows)
        case .postgres:
            let connection = try PGConnection(url: database.location)
            try connection.migrate(to: Array(Migration.postgres.prefix { $0.name < "0007" }))
            try connection.executeScript(rows)
        }
        let store = try database.open()
        let id = try #require(UUID(uuidString: user))
        let later = Timestamp(millisecondsSince1970: 1_000_000_000_000)
        #expect(try store.outcome(of: "added", for: id, notBefore: later)?.answer.status == 201)
        #expect(try store.outcome(of: "deleted", for: id, notBefore: later)?.answer.status == 204)
        #expect(try store.outcome(of: "refused", for: id, notBefore: later) == nil)
        #expect(try store.deleteKeys(usedBefore: later, limit: 10) == 2)
        #expect(try database.count("idempotency_keys") == 2)
    }
}
