import Testing
@testable import LucidAPI

/// The router hides the parameters it marks secret (a share's token) from every path it logs.
@Suite struct LoggedPathTests {
    @Test(arguments: [
        ("/s/Vx3kPq-secret", "/s/{token}"),
        ("/s/Vx3kPq-secret/cards/0.svg", "/s/{token}/cards/0.svg"),
        // Paths that only begin like a share's: the token is still one.
        ("/s/Vx3kPq-secret/", "/s/{token}/"),
        ("/s/Vx3kPq-secret/nothing/here", "/s/{token}/nothing/here"),
        ("/s/Vx3kPq-secret/cards/", "/s/{token}/cards/"),
        // Nothing secret: as sent.
        ("/s/", "/s/"),
        ("/s", "/s"),
        ("/v1/dreams/0b6d6c52-5d8e-4a43-a3a4-3f4e1f0f5b1a", "/v1/dreams/0b6d6c52-5d8e-4a43-a3a4-3f4e1f0f5b1a"),
        ("/v1/shares/0b6d6c52", "/v1/shares/0b6d6c52"),
        ("/nothing/s/x", "/nothing/s/x"),
        ("", ""),
        ("/", "/"),
    ])
    func secretsAreWrittenAsTheirNames(_ path: String, _ logged: String) {
        #expect(API.routes.loggedPath(path) == logged)
    }

    @Test func onlyTheShareRoutesHaveSecrets() {
        let secret = API.routes.routes.filter { !$0.secrets.isEmpty }.map { "\($0.method) \($0.pattern) \($0.secrets.sorted())" }
        #expect(secret == [#"GET /s/{token} ["token"]"#, #"GET /s/{token}/cards/{card} ["token"]"#])
    }
}
