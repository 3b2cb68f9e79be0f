import Foundation
import LucidHTTPTesting
import LucidServerTesting

/// A hotel's network between `lucid journal` and a test's server (see
/// ``script``), run by Python, stopped by the test.
struct HotelNetwork {
    let process: ChildProcess
    /// Where the device reaches the server through it.
    let port: UInt16

    /// A network to `fixture`'s server, captive while a file is at `flag`, losing answers
    /// while one is at `flag` + `.lose`, failing every request that carries `failing`.
    init(to fixture: KitFixture, flag: URL, failing: String? = nil) throws {
        let arguments = ["python3", "-c", Self.script, String(try fixture.server.port), flag.path]
        process = try ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments + (failing.map { [$0] } ?? []))
        // It says its port on its first line of output.
        let deadline = Date().addingTimeInterval(10)
        var port: UInt16?
        while port == nil, Date() < deadline {
            port = process.output.split(separator: "\n").first.flatMap { UInt16($0) }
            if port == nil { usleep(50_000) }
        }
        guard let port else {
            process.signal(SIGTERM)
            throw UnexpectedResponse(description: "the hotel network did not start: \(process.errors)")
        }
        self.port = port
    }

    func stop() {
        process.signal(SIGTERM)
        _ = process.waitForExit(seconds: 5)
    }

    /// A hotel's network between a device and the server on the port given: it passes every
    /// request through, until a file exists at the path given; then, a captive portal, it
    /// answers every request with an HTML 403 page of its own; while a file exists at that
    /// path with `.lose` added, it passes requests on and loses their answers. Given a third argument, it
    /// stands for a server that fails every request whose body holds those words (`500`,
    /// with Lucid's problem document) and answers the rest.
    static let script = """
        import http.client, http.server, os, sys
        server_port, flag = int(sys.argv[1]), sys.argv[2]
        failing = sys.argv[3].encode() if len(sys.argv) > 3 else None
        class Network(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def answer(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if os.path.exists(flag):
                    status, headers, body = 403, [("Content-Type", "text/html")], b"<html>Accept the terms of this network to go on.</html>"
                elif os.path.exists(flag + ".lose"):
                    # The request reaches the server; its answer is lost on the way back.
                    upstream = http.client.HTTPConnection("127.0.0.1", server_port, timeout=30)
                    upstream.request(self.command, self.path, body=body, headers={k: v for k, v in self.headers.items() if k.lower() != "host"})
                    upstream.getresponse().read()
                    upstream.close()
                    self.close_connection = True
                    return
                elif failing and failing in body:
                    status, headers, body = 500, [("Content-Type", "application/problem+json")], b'{"type":"/problems/internal","title":"Internal error","status":500,"detail":"Something went wrong on our side; nothing was changed."}'
                else:
                    upstream = http.client.HTTPConnection("127.0.0.1", server_port, timeout=30)
                    upstream.request(self.command, self.path, body=body, headers={k: v for k, v in self.headers.items() if k.lower() != "host"})
                    reply = upstream.getresponse()
                    status, headers, body = reply.status, [(k, v) for k, v in reply.getheaders() if k.lower() not in ("content-length", "transfer-encoding", "connection")], reply.read()
                    upstream.close()
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = answer
            def log_message(self, *arguments):
                pass
        network = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Network)
        print(network.server_address[1], flush=True)
        network.serve_forever()
        """
}
