import Foundation
import LucidHTTPTesting
import Synchronization

/// A write a crash test sends under an idempotency key, with a known effect: the same bytes
/// on every send.
struct KeyedWrite: Sendable {
    let key: String
    /// The dream it adds, or whose add it undoes or redoes.
    let id: String
    let method: String
    let path: String
    let body: [UInt8]?
    /// Whether it is refused (a kept 422) and changes nothing.
    var isRefused = false

    func bytes(token: String) -> [UInt8] {
        var headers = [(name: "Authorization", value: "Bearer \(token)"), (name: "Idempotency-Key", value: key)]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return TestConnection.requestBytes(method: method, path: path, headers: headers, body: body)
    }

    /// Add `number` of adder `adder`: a dream whose id and description name it; one in seven
    /// has a blank description, a 422 that is kept and changes nothing.
    static func addition(_ adder: Int, _ number: Int) -> KeyedWrite {
        let key = "add-\(adder)-\(number)", refused = number % 7 == 3
        let id = String(format: "%08x-0000-4000-8000-%012x", adder + 1, number)
        return KeyedWrite(key: key, id: id, method: "POST", path: "/v1/dreams", body: JSON.encode([
            "id": id, "description": refused ? " " : "added under \(key)", "creature": ["kind": "shark"],
        ]), isRefused: refused)
    }

    /// Step `number` of a journal that adds a dream, undoes the add and redoes it, over and
    /// over, under both paths of undo and redo: step k makes version k + 1.
    static func step(_ number: Int) -> KeyedWrite {
        let key = "step-\(number)"
        let id = String(format: "5e5e5e5e-0000-4000-8000-%012x", number - number % 3)
        let prefix = number % 2 == 0 ? "/v1" : ""
        switch number % 3 {
        case 0:
            return KeyedWrite(key: key, id: id, method: "POST", path: "/v1/dreams", body: JSON.encode([
                "id": id, "description": "added under \(key)", "creature": ["kind": "dragon"],
            ]))
        case 1: return KeyedWrite(key: key, id: id, method: "POST", path: prefix + "/undo", body: nil)
        default: return KeyedWrite(key: key, id: id, method: "POST", path: prefix + "/redo", body: nil)
        }
    }
}

/// What one client has sent: how many writes, the answers it read, and the writes whose
/// answers it has not read (cut before reading, or the server died).
struct ClientLedger: Sendable {
    var next = 0
    var answers: [Int: TestResponse] = [:]
    var inDoubt: [Int] = []
}

/// Writes done so far, across the client threads.
final class Tally: Sendable {
    private let value = Mutex(0)

    var count: Int { value.withLock { $0 } }

    func add() { value.withLock { $0 += 1 } }
}
