import LucidHTTP
import LucidHTTPTesting
import Synchronization
import Testing

/// What admission decides reaches the answer: each request is answered, or turned away,
/// with the ticket its own admission issued, and admission runs once per request.
@Suite struct TicketTests {
    /// A ticket that says which admission issued it and what it saw.
    struct Stamp: Sendable {
        let number: Int
        let path: String
    }

    /// Numbers its admissions and answers with the stamp it is handed, so a test sees
    /// whether the stamp came from the request's own admission.
    final class NumberingApplication: HTTPApplication {
        let admissions = Mutex(0)

        func admit(_ request: Request, body: BodyFraming) -> Admission<Stamp> {
            let number = admissions.withLock { count in
                count += 1
                return count
            }
            return .accept(Stamp(number: number, path: request.path), lane: 0, maxBodyBytes: 16)
        }

        func respond(to request: Request, admitted stamp: Stamp) -> Answer {
            .response(Response(status: 200, body: Array("answered \(stamp.number) \(stamp.path) for \(request.path)".utf8)))
        }

        func refuse(_ request: Request, admitted stamp: Stamp, because reason: Refusal) -> Response {
            Response(status: 413, body: Array("refused \(stamp.number) \(stamp.path) for \(request.path)".utf8))
        }

        func reject(_ request: Request, because flaw: HeadFlaw) -> Response { Response(status: 400) }

        func answeredWithoutApplication(_ request: Request, status: Int) {}
    }

    @Test func eachRequestIsAnsweredOrRefusedWithTheTicketOfItsOwnAdmission() throws {
        let application = NumberingApplication()
        let server = Server(configuration: testConfiguration(), application: application)
        let port = try server.start()
        defer { server.stop() }

        let connection = try TestConnection(port: port)
        #expect(try connection.request(method: "GET", path: "/a").text == "answered 1 /a for /a")
        #expect(try connection.request(method: "POST", path: "/b", body: Array("short".utf8)).text == "answered 2 /b for /b")
        // Refused from its announced length, before the body is read.
        let announced = try TestConnection(port: port).request(method: "POST", path: "/c", body: Array(repeating: 1, count: 17))
        #expect(announced.status == 413)
        #expect(announced.text == "refused 3 /c for /c")
        // Refused once a chunked body grows past the limit.
        let chunked = try TestConnection(port: port)
        try chunked.send("POST /d HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n11\r\n" + String(repeating: "d", count: 17) + "\r\n0\r\n\r\n")
        let refused = try chunked.readResponse()
        #expect(refused.status == 413)
        #expect(refused.text == "refused 4 /d for /d")
        #expect(application.admissions.withLock { $0 } == 4)
    }
}
