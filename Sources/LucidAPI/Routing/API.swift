public import Foundation
public import LucidCrypto
public import LucidHTTP
public import LucidMetrics
public import LucidModel
public import LucidStore
import LucidWire
import Synchronization

/// Settings of the API that are not the HTTP server's.
public struct APIConfiguration: Sendable {
    /// Whether anyone may register.
    public enum Registration: String, Sendable, CaseIterable {
        case open, closed
    }

    public var registration: Registration = .open
    /// The argon2id cost for new password hashes; tests use `.minimum`.
    public var passwordCost: PasswordHasher.Cost = .interactive
    /// The largest request body accepted, quoted in 413 answers.
    public var maxBodyBytes: Int = 1 << 20
    /// The largest body of `POST /v1/import` (a whole exported journal): 32 MiB by default.
    public var maxImportBytes: Int = 32 << 20
    /// Most password hashes computed at once (each takes the cost's memory, 64 MiB for
    /// `.interactive`); sign-ins and registrations beyond it wait in their own lane.
    public var concurrentHashes: Int = APIConfiguration.defaultConcurrentHashes
    /// Longest a sign-in or registration waits for a hashing slot before it is answered 503.
    public var hashQueueTimeout: Duration = .seconds(10)
    /// How many sessions the cache in front of the database holds (about 350 bytes each);
    /// past it the least recently used one is dropped.
    public var sessionCacheCapacity: Int = 100_000
    /// How many bytes the answers of reads kept once rendered may take (pages of dreams,
    /// models, dreams, pages of history, old versions: see ``RenderedAnswers``); past it the
    /// least recently used go. 0 keeps none. 64 MiB by default.
    public var renderedBytes: Int = 64 << 20
    /// Seconds between deletions of expired sessions from the database; 0 never deletes them.
    public var sessionSweepSeconds: Int = 60
    /// How long the answer to a request with an `Idempotency-Key` is kept for its retries,
    /// in seconds: a day by default, as Stripe keeps them.
    public var idempotencyKeyLifetime: Int = 86_400
    /// Seconds between deletions of expired idempotency keys; 0 never deletes them.
    public var keySweepSeconds: Int = 60
    /// Most event streams one user may hold open at once (one per device or tab).
    public var maxStreamsPerUser: Int = 16
    /// How long an event stream may stay silent before a comment keeps proxies from closing it.
    public var streamQuiet: Duration = .seconds(15)
    /// How many bytes of events all event streams together may hold, queued or being written
    /// (an event sent to many streams counts once); one event larger than it still goes out
    /// alone. 256 MiB by default.
    public var streamBufferBytes: Int = 256 << 20
    /// Where answered requests are counted (`lucid serve --metrics-address`); `nil`: nowhere.
    public var metrics: Metrics?
    /// Which browser apps on other origins may use the API (`lucid serve --allow-origin`);
    /// off by default.
    public var cors: CORSPolicy = .off

    /// Settings with the defaults of `lucid serve`.
    public init(
        registration: Registration = .open, passwordCost: PasswordHasher.Cost = .interactive, maxBodyBytes: Int = 1 << 20,
        concurrentHashes: Int = APIConfiguration.defaultConcurrentHashes, hashQueueTimeout: Duration = .seconds(10),
        sessionCacheCapacity: Int = 100_000, sessionSweepSeconds: Int = 60, idempotencyKeyLifetime: Int = 86_400,
        keySweepSeconds: Int = 60, maxStreamsPerUser: Int = 16, streamQuiet: Duration = .seconds(15),
        metrics: Metrics? = nil, maxImportBytes: Int = 32 << 20, streamBufferBytes: Int = 256 << 20, cors: CORSPolicy = .off,
        renderedBytes: Int = 64 << 20
    ) {
        self.registration = registration
        self.passwordCost = passwordCost
        self.maxBodyBytes = maxBodyBytes
        self.sessionCacheCapacity = sessionCacheCapacity
        self.sessionSweepSeconds = sessionSweepSeconds
        self.idempotencyKeyLifetime = idempotencyKeyLifetime
        self.keySweepSeconds = keySweepSeconds
        self.maxStreamsPerUser = maxStreamsPerUser
        self.streamQuiet = streamQuiet
        self.concurrentHashes = concurrentHashes
        self.hashQueueTimeout = hashQueueTimeout
        self.metrics = metrics
        self.maxImportBytes = maxImportBytes
        self.streamBufferBytes = streamBufferBytes
        self.cors = cors
        self.renderedBytes = renderedBytes
    }

    /// One hash per core (hashing is all CPU), and no more than an eighth of memory holds.
    public static var defaultConcurrentHashes: Int {
        let memoryBound = ConnectionBudget.physicalMemory / 8 / (64 << 20)
        return max(1, min(ServerConfiguration.activeProcessorCount, memoryBound))
    }
}

/// Where the API gets the time and new ids, so tests can fix them.
public struct Environment: Sendable {
    public var now: @Sendable () -> Timestamp
    /// Ids of accounts, sessions and shares.
    public var newID: @Sendable () -> UUID
    /// Ids of dreams the server makes at a time: time-ordered (``UUID/timeOrdered(at:)``), so a
    /// journal's new dreams land together at the end of the indexes keyed by them.
    public var newDreamID: @Sendable (Timestamp) -> UUID

    /// The wall clock, to the millisecond, random UUIDs, and time-ordered ones for dreams.
    public static let live = Environment(now: { Timestamp.now }, newID: { UUID.random() })

    /// An environment with this clock and these id sources.
    public init(
        now: @escaping @Sendable () -> Timestamp, newID: @escaping @Sendable () -> UUID,
        newDreamID: @escaping @Sendable (Timestamp) -> UUID = UUID.timeOrdered(at:)
    ) {
        self.now = now
        self.newID = newID
        self.newDreamID = newDreamID
    }
}

/// The Lucid HTTP API: routes each request to a handler and turns every outcome,
/// failures included, into a response. Never throws and never traps on input.
public final class API: Sendable {
    let journals: any JournalStore
    let accounts: any AccountStore
    let configuration: APIConfiguration
    let environment: Environment
    let hasher: PasswordHasher
    let sessions: SessionCache
    /// The answers of reads already rendered, by journal, version and representation.
    let renderedAnswers: RenderedAnswers
    /// Deletes expired sessions from the database every `sessionSweepSeconds`.
    let sessionSweeper: Sweeper
    /// Deletes expired idempotency keys every `keySweepSeconds`.
    let keySweeper: Sweeper
    /// The idempotency keys of requests running now.
    let runningKeys = RunningKeys()
    /// The words of the journals searched lately, for scoring their dreams.
    let searchWords = SearchWordsCache()
    /// Tells long polls and event streams of new versions.
    let feed: ChangeFeed
    /// Failed sign-ins per network and username, per network, and per username.
    let throttle: Mutex<LoginThrottle>
    /// Share links that opened nothing, per network: 20 at once, then one every 3 s.
    let shareMisses = Mutex(ThrottleTable<ClientNetwork>(rule: .init(burst: 20, interval: 3_000), capacity: 100_000))
    /// Deletes expired shares every `sessionSweepSeconds`.
    let shareSweeper: Sweeper
    /// Clears what deleted accounts left in the database's files, every `sessionSweepSeconds`,
    /// when a deletion could not at once (a reader held the write-ahead log).
    let erasureSweeper: Sweeper
    /// A hash to check passwords of unknown usernames against, so they cost as much as known
    /// ones: shaped as this hasher's, matched by no password.
    let dummyHash: String
    let router: Router
    let log: @Sendable (LogRecord) -> Void

    /// The API over these stores; `log` receives a record of every request answered and a
    /// message for anything else worth telling (a sweep, a failure the API got over).
    public init(
        journals: any JournalStore, accounts: any AccountStore, configuration: APIConfiguration = APIConfiguration(),
        environment: Environment = .live, log: @escaping @Sendable (LogRecord) -> Void
    ) {
        self.journals = journals
        self.accounts = accounts
        self.configuration = configuration
        self.environment = environment
        self.hasher = PasswordHasher(cost: configuration.passwordCost)
        // A session another process can end must be read from the database every time.
        self.sessions = SessionCache(capacity: accounts.isShared ? 0 : configuration.sessionCacheCapacity)
        // Each answer is of one version, which never changes: only a deletion drops them.
        let renderedAnswers = RenderedAnswers(budget: configuration.renderedBytes)
        self.renderedAnswers = renderedAnswers
        journals.observe(renderedAnswers)
        self.sessionSweeper = Sweeper(
            "expired sessions", every: configuration.sessionSweepSeconds, cutoff: environment.now,
            delete: { try accounts.deleteExpiredSessions(at: $0, limit: $1) }, log: log)
        let lifetime = Int64(configuration.idempotencyKeyLifetime) * 1000
        self.keySweeper = Sweeper(
            "expired idempotency keys", every: configuration.keySweepSeconds,
            cutoff: { [now = environment.now] in Timestamp(millisecondsSince1970: now().millisecondsSince1970 - lifetime) },
            delete: { try journals.deleteKeys(usedBefore: $0, limit: $1) }, log: log)
        self.shareSweeper = Sweeper(
            "expired shares", every: configuration.sessionSweepSeconds, cutoff: environment.now,
            delete: { try journals.deleteExpiredShares(at: $0, limit: $1) }, log: log)
        self.erasureSweeper = Sweeper(
            "leftovers of deleted accounts", every: configuration.sessionSweepSeconds,
            cutoff: environment.now, delete: { _, _ in try journals.purgeErased() }, log: log)
        let feed = ChangeFeed(now: environment.now, budget: StreamBudget(limit: configuration.streamBufferBytes))
        self.feed = feed
        journals.observe(feed)
        self.throttle = Mutex(LoginThrottle())
        self.dummyHash = hasher.decoy()
        self.router = Self.routes
        self.log = log
    }

    deinit {
        feed.stop()
    }

    /// The method and path pattern of every route, for checking against openapi.yaml.
    public static var routeTable: [(method: String, pattern: String)] {
        routes.routes.map { ($0.method, $0.pattern) }
    }

    /// Answers `request` as the server would, without a socket: admission from its head
    /// (404, 405, a missing token, a body over the route's limit), then the answer on the
    /// calling thread, logged as every answer is. What a test of the API calls; the server
    /// calls ``admit(_:body:)`` and ``respond(to:admitted:)`` itself.
    public func handle(_ request: Request) -> Answer {
        var head = request
        head.body = []
        switch admit(head, body: request.body.isEmpty ? .none : .length(request.body.count)) {
        case .answer(let response):
            return .response(response)
        case .accept(let admitted, _, let maxBodyBytes):
            guard request.body.count <= maxBodyBytes else {
                return .response(refuse(head, admitted: admitted, because: .bodyTooLarge(limit: maxBodyBytes)))
            }
            return respond(to: request, admitted: admitted)
        }
    }

    /// Answers an admitted `request` through its route, and logs it: method, route, path,
    /// status, duration, user id, request id, and for a failure inside the server its detail.
    /// Never a secret, a body, or a query string. An answer that waits (a long poll) is logged
    /// when it goes out; a stream or a download when it starts.
    func answer(_ request: Request, through admitted: AdmittedRoute) -> Answer {
        var call = openCall(request, through: admitted)
        do throws(Problem) {
            switch try run(admitted.route, &call) {
            case .response(let response):
                return .response(finish(response, of: call))
            case .stream(let head, let stream):
                return .stream(head: finish(head, of: call), stream)
            case .pulled(let head, let source):
                return .pulled(head: finish(head, of: call), source)
            case .pending(let pending):
                return .pending(pending)
            }
        } catch {
            return .response(finish(error, of: call))
        }
    }

    /// The call of `request` to the route it was admitted to, with a new request id.
    func openCall(_ request: Request, through admitted: AdmittedRoute) -> OpenCall {
        OpenCall(
            request: request, parameters: admitted.parameters, route: admitted.route.pattern,
            requestID: Self.makeRequestID(), started: .now, crossOrigin: configuration.cors.crossOrigin(of: request),
            caching: admitted.route.caching)
    }

    /// The problem as the call's answer, logged with what went wrong inside the server.
    private func finish(_ problem: Problem, of call: OpenCall) -> Response {
        let failure = problem.logDetail.map { String($0.prefix(Self.logDetailLimit)) }
        return finish(problem.response(requestID: call.requestID), of: call, failure: failure)
    }

    /// `response` with the call's request id, logged.
    func finish(_ response: Response, of call: OpenCall, failure: String? = nil) -> Response {
        let response = Self.tagged(response, call)
        logLine(response, of: call, failure: failure)
        return response
    }

    /// Logs the record of `call` answered with `response`. The path is logged with its
    /// secrets hidden by the router; the log's format escapes what came from the client.
    func logLine(_ response: Response, of call: OpenCall, failure: String? = nil) {
        let elapsed = ContinuousClock.now - call.started
        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        let request = call.request
        log(.request(RequestLog(
            method: request.method, route: call.route, path: router.loggedPath(request.path), status: response.status,
            microseconds: micros, userID: call.loggedUserID, requestID: call.requestID, error: failure)))
        record(response, of: call)
    }

    /// The most characters of a failure's detail a log line carries: enough for any SQLite
    /// message, short enough that one failing request cannot flood the log.
    static let logDetailLimit = 500

    /// A libmicrohttpd server answering with this API, with its lanes.
    public func server(_ http: ServerConfiguration) -> Server {
        var http = http
        http.lanes = Lanes.all(configuration)
        return Server(configuration: http, application: self)
    }

    /// Answers `request` with the problem `problem`, logged like any answer, under `route`
    /// (the pattern it matched, if it did): a 401, 404 or 405 before the body is read, or a
    /// request the server turned away.
    func answer(_ request: Request, route: String?, with problem: Problem) -> Response {
        finish(problem, of: OpenCall(
            request: request, parameters: [:], route: route, requestID: Self.makeRequestID(), started: .now,
            crossOrigin: configuration.cors.crossOrigin(of: request)))
    }

    /// Runs `route`'s handler for `call`: an open route's as it is; a signed-in route's once
    /// the token is checked, after the idempotency key's syntax, with the key's promise kept
    /// around it (see ``runOnce(_:_:_:)``).
    private func run(_ route: Router.Route, _ call: inout OpenCall) throws(Problem) -> Answer {
        switch route.handler {
        case .open(let handler):
            return .response(try handler(self, &call))
        case .signedIn(let handler):
            let key = route.keepsAnswers ? try Self.idempotencyKey(of: call.request) : nil
            let signedIn = try authenticated(&call)
            guard let key else { return .response(try handler(self, signedIn)) }
            return .response(try runOnce(key, signedIn, as: route.keyedPath(of: call.request), handler))
        case .waiting(let handler):
            return try handler(self, try authenticated(&call))
        case .read(let read):
            return .response(try answer(try authenticated(&call), reading: read))
        }
    }

    /// The call signed in with its bearer token (401 if it does not sign anyone in); the log
    /// line names the user from here on, whatever the handler answers.
    private func authenticated(_ call: inout OpenCall) throws(Problem) -> SignedInCall {
        signIn(&call, as: try authenticate(call.request))
    }

    /// The call signed in as `session`; the log line names the user from here on.
    func signIn(_ call: inout OpenCall, as session: Session) -> SignedInCall {
        call.loggedUserID = session.user.id
        return SignedInCall(base: call, session: session)
    }

    static func makeRequestID() -> String {
        let value = UInt64.random(in: .min ... .max)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
