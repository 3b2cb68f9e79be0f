import LucidHTTP
import LucidStore
import LucidWire

/// Reads whose answers are kept once rendered (see ``JournalRead``).
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
}

extension SignedInCall {
    /// The key of the answer `representation` of the user's journal at `version`.
    func answer(_ representation: RenderedAnswers.Representation, at version: Int) -> RenderedAnswers.Key {
        RenderedAnswers.Key(user: user.id, version: version, representation: representation)
    }
}
