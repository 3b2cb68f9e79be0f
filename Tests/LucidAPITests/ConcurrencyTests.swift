import Dispatch
import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Synchronization
import Testing

@Suite("Many clients at once")
struct ConcurrencyTests {
    /// 8 threads × 25 requests, half for each of two users, mixing POST /v1/dreams and
    /// GET /v1/model: every answer is a 2xx, every POST gets its own version, and each
    /// journal ends with exactly the dreams posted to it.
    @Test func twoUsersPostingAndReadingAtOnce() throws {
        try withServer { client in
            let tokens = [try client.register("left"), try client.register("right")]
            let threads = 8, requests = 25
            let failures = Mutex<[String]>([])
            let versions = Mutex<[[Int]]>([[], []])
            let group = DispatchGroup()
            for thread in 0..<threads {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    let user = thread % 2
                    for index in 0..<requests {
                        do {
                            if index % 2 == 0 {
                                let response = try client.post(
                                    "/v1/dreams", json: ["description": "thread \(thread) dream \(index)", "creature": ["kind": "dragon"]],
                                    token: tokens[user])
                                guard response.status == 201, let tag = withoutJournal(response.header("ETag")),
                                      let version = Int(tag.dropFirst().dropLast())
                                else { throw UnexpectedResponse(description: "POST: \(response.status) \(response.text)") }
                                versions.withLock { $0[user].append(version) }
                            } else {
                                let response = try client.get("/v1/model", token: tokens[user])
                                guard response.status == 200 else {
                                    throw UnexpectedResponse(description: "GET: \(response.status) \(response.text)")
                                }
                            }
                        } catch {
                            failures.withLock { $0.append("thread \(thread) request \(index): \(error)") }
                        }
                    }
                }
            }
            #expect(group.wait(timeout: .now() + 120) == .success)
            #expect(failures.withLock { $0 } == [])

            let postsPerUser = (threads / 2) * ((requests + 1) / 2)
            for user in 0..<2 {
                let model = try client.model(tokens[user])
                #expect(model["version"].int == postsPerUser)
                #expect(model["dreams"].count == postsPerUser)
                #expect(versions.withLock { $0[user] }.sorted() == Array(1...postsPerUser))
                let descriptions = Set(model["dreams"].array?.compactMap { $0["description"].string } ?? [])
                let expected = Set((0..<threads).filter { $0 % 2 == user }.flatMap { thread in
                    stride(from: 0, to: requests, by: 2).map { "thread \(thread) dream \($0)" }
                })
                #expect(descriptions == expected)
                #expect(try client.history(tokens[user])["items"].count == postsPerUser)
            }
        }
    }
}
