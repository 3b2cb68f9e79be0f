/// An accepted request's ticket, bound to the application that issued it: the server carries
/// it from the I/O thread that admitted the request to the worker that answers it (or to
/// whoever turns the request away) without knowing the ticket's type, and no one casts it back.
protocol AdmittedRequest: Sendable {
    /// The application's answer to the whole request, given its ticket.
    func respond(to request: Request) -> Answer
    /// The application's answer to the request turned away for `reason`, given its ticket.
    func refuse(_ request: Request, because reason: Refusal) -> Response
}

/// A ticket together with the application to hand it back to.
private struct Ticketed<Application: HTTPApplication>: AdmittedRequest {
    let application: Application
    let ticket: Application.Ticket

    func respond(to request: Request) -> Answer {
        application.respond(to: request, admitted: ticket)
    }

    func refuse(_ request: Request, because reason: Refusal) -> Response {
        application.refuse(request, admitted: ticket, because: reason)
    }
}

/// What admission decided, as the server keeps it: an ``Admission`` whose ticket is bound
/// to its application.
enum Decision {
    case accept(any AdmittedRequest, lane: Int, maxBodyBytes: Int)
    case answer(Response)
}

extension HTTPApplication {
    /// ``admit(_:body:)``, with an accepted request's ticket bound to this application.
    func decide(_ request: Request, body: BodyFraming) -> Decision {
        switch admit(request, body: body) {
        case .accept(let ticket, let lane, let maxBodyBytes):
            .accept(Ticketed(application: self, ticket: ticket), lane: lane, maxBodyBytes: maxBodyBytes)
        case .answer(let response):
            .answer(response)
        }
    }
}
