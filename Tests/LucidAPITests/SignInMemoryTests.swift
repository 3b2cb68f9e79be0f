import Foundation
import LucidCrypto
import LucidHTTPTesting
import LucidModel
import LucidSQLite
import LucidServerTesting
import LucidStore
import Testing

/// A password check that cannot get its memory is a 503 to retry, never a wrong-password 401,
/// and is not counted as a failed sign-in. The real `lucid serve` runs under an address-space
/// limit (`ulimit -v`), so the allocation fails the same way on every machine.
@Suite struct SignInMemoryTests {
    /// The child's address space: far above what the server needs (about 1 GiB mapped with its
    /// threads' stacks and arenas, plus 64 MiB per hash), far below the hash's 16 GiB.
    static let addressSpaceKiB = 3 << 20

    @Test func aHashThatCannotBeAllocatedIs503AndNotAFailure() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-memory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("lucid.sqlite").path
        // A user whose stored hash asks for 16 GiB (m is in KiB): its salt and digest do not
        // matter, since the check fails before any comparison. Written before the server
        // starts, since a running server holds the database for itself.
        let huge = "$argon2id$v=19$m=16777216,t=1,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
        do {
            let user = User(id: UUID(), username: "squeezed", createdAt: Timestamp(millisecondsSince1970: 0))
            try SQLiteAccountStore(path: database).register(user, passwordHash: huge, sessionTokenHash: SessionToken.hash(SessionToken.generate()))
        }
        let child = try ChildProcess(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "ulimit -v \(Self.addressSpaceKiB) && exec \"$0\" \"$@\"", LucidBinary.url.path,
             "serve", "--port", "0", "--database", database],
            environment: ["LUCID_THREADS": "2"])
        let announced = try #require(child.waitForOutput(containing: "listening on", seconds: 20), "\(child.errors)")
        let port = try #require(announced.split(separator: ":").last.flatMap { UInt16($0) })

        func post(_ path: String, _ json: [String: Any]) throws -> TestResponse {
            try TestConnection(port: port, timeoutSeconds: 20).request(
                method: "POST", path: path, headers: [("Content-Type", "application/json")], body: JSON.encode(json))
        }
        let credentials = ["username": "squeezed", "password": "correct horse battery staple"]

        // More attempts than the free failures before a 429: none of them counts as one.
        for password in Array(repeating: credentials["password"]!, count: 6) + ["a wrong one"] {
            let response = try post("/v1/sessions", ["username": "squeezed", "password": password])
            expectProblem(response, 503, "unavailable")
            #expect(response.header("Retry-After").flatMap { Int($0) }.map { $0 >= 1 } == true)
        }
        // The server is still healthy, and other users still sign in.
        #expect(try post("/v1/users", ["username": "roomy", "password": "another good password"]).status == 201)
        #expect(try post("/v1/sessions", ["username": "roomy", "password": "another good password"]).status == 201)

        child.signal(SIGTERM)
        #expect(child.waitForExit(seconds: 20) == 0)
        #expect(!child.errors.contains("correct horse"))
    }
}
