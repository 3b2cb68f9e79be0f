import LucidHTTP
import LucidModel
import LucidStore
import LucidWire

/// Reads whose answers are kept once rendered (see ``JournalRead``): answered by a worker
/// through the store, or at admission from memory alone when the answer is ready there.
extension API {
    /// Answers `read` for a signed-in call: the journal's head from the store, then the answer
    /// kept for the read's key, or one rendered now and kept. The ticket is taken before the
    /// head is read, so that an answer of an account deleted meanwhile is never kept.
    func answer(_ call: SignedInCall, reading read: Router.ReadHandler) throws(Problem) -> Response {
        let ticket = renderedAnswers.ticket()
        let user = call.user.id
        let outcome = try read(self, call) { () throws(Problem) in
            try journal { () throws(JournalError) in try journals.head(of: user) }
        }
        switch outcome {
        case .ready(let response):
            return response
        case .rendered(let key, let render):
            if let kept = renderedAnswers.answer(for: key) { return kept }
            switch try render() {
            case .ofVersion(let response):
                renderedAnswers.keep(response, for: key, after: ticket)
                return response
            case .moved(let response):
                return response
            }
        }
    }

    /// The answer to `request`, a read of `admitted`'s route without a body, if memory has it
    /// ready: its token's session cached with no use of it due to be written, the journal's
    /// head in memory, and the answer a `304` or one kept. Finished (request id, caching and
    /// CORS headers, log line, metrics) as a worker finishes it. `nil` for anything else,
    /// problems included: the request then goes to a worker, which answers it as ever.
    func readyAnswer(to request: Request, through admitted: AdmittedRoute, reading read: Router.ReadHandler) -> Response? {
        guard let session = cachedSession(of: request) else { return nil }
        var call = openCall(request, through: admitted)
        let signedIn = signIn(&call, as: session)
        let user = session.user.id
        let outcome = try? read(self, signedIn) { () throws(Problem) in
            guard let head = journals.headInMemory(of: user) else { throw Self.notInMemory }
            return head
        }
        let response: Response?
        switch outcome {
        case .ready(let ready)?: response = ready
        case .rendered(let key, _)?: response = renderedAnswers.answer(for: key)
        case nil: response = nil
        }
        return response.map { finish($0, of: call) }
    }

    /// What stops a read at admission when the journal's head is not in memory. Never sent:
    /// the request goes to a worker instead.
    private static let notInMemory = Problem(.unavailable, "The journal is not in memory.")
}

extension SignedInCall {
    /// The key of the answer `representation` of the user's journal at `version`.
    func answer(_ representation: RenderedAnswers.Representation, at version: Int) -> RenderedAnswers.Key {
        RenderedAnswers.Key(user: user.id, version: version, representation: representation)
    }
}
