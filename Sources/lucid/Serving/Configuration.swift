import LucidAPI
import LucidHTTP
import LucidStore

/// The settings of `lucid serve`, from flags, then `LUCID_*` environment variables, then defaults.
struct Configuration: Equatable {
    var host = "127.0.0.1"
    var port: UInt16 = 8080
    /// A SQLite file, or a `postgresql://` URL.
    var database = "data/lucid.sqlite"
    /// Connections to PostgreSQL at most; `nil`: one per request thread.
    var databaseConnections: Int?
    /// Request threads; `nil`: as many as ``requestThreads`` picks for the store.
    var threads: Int?

    /// The request threads: `threads` if set, else sixteen per core, at most 256, on either
    /// store. A thread waits while its write commits, and the writes that queue meanwhile
    /// share the next commit (on SQLite, its sync of the log; on PostgreSQL, its transaction
    /// and flush), so the threads bound how many writes one commit carries, and every commit
    /// costs about the same work whatever it carries. On SQLite, with four per core (8 here)
    /// a commit carried 4.4 adds at 64 connections, with 32 threads about 15, for about a
    /// quarter less CPU per add; on PostgreSQL, 32 threads took adds to one journal from
    /// 888/s to 1,659/s. Threads that wait use no core.
    var requestThreads: Int {
        if let threads { return threads }
        return min(256, 16 * ServerConfiguration.activeProcessorCount)
    }

    /// The PostgreSQL connections: `databaseConnections` if set, else four per core. A request
    /// holds one only while it reads, and a group of writes one for its transaction, so more
    /// would only add PostgreSQL processes contending for the same cores.
    var connections: Int {
        databaseConnections ?? 4 * ServerConfiguration.activeProcessorCount
    }
    var maxBodyBytes = 1 << 20
    /// The largest body of `POST /v1/import`.
    var maxImportBytes = 32 << 20
    var registration = APIConfiguration.Registration.open
    /// `nil`: what the process can hold (open-file limit and memory).
    var maxConnections: Int?
    var maxConnectionsPerAddress = 256
    var headerTimeout = 15
    var bodyTimeout = 60
    var idleTimeout = 60
    var concurrentHashes = APIConfiguration.defaultConcurrentHashes
    var sessionCacheEntries = 100_000
    /// How much memory the heads of recently used journals may take, estimated from their dreams.
    var headCacheBytes = StoreLimits.defaultHeadCacheBytes
    /// How much memory the answers of reads kept once rendered may take; 0 keeps none.
    var renderedCacheBytes = 64 << 20
    /// Seconds an idempotency key's answer is kept for retries.
    var idempotencyKeyLifetime = 86_400
    /// Event streams one user may hold open at once.
    var maxStreamsPerUser = 16
    /// Bytes of events all streams together may hold.
    var streamBufferBytes = 256 << 20
    /// Lines a person reads, or JSON objects for a log shipper.
    var logFormat = LogFormat.text
    /// Where `GET /metrics` is served; `nil`: nowhere.
    var metricsAddress: ListenAddress?
    /// The origins whose browser apps may use the API (CORS); none: CORS is off.
    var allowedOrigins: [WebOrigin] = []

    /// Why the command line could not be read.
    struct Invalid: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// The option names, their variables, and how each is read.
    private static let options: [(flag: String, variable: String, apply: @Sendable (inout Configuration, String) -> Bool)] = [
        ("--host", "LUCID_HOST", { $0.host = $1; return !$1.isEmpty }),
        ("--port", "LUCID_PORT", { config, text in UInt16(text).map { config.port = $0 } != nil }),
        ("--database", "LUCID_DATABASE", { $0.database = $1; return !$1.isEmpty }),
        ("--database-connections", "LUCID_DATABASE_CONNECTIONS", integer(\.databaseConnections, in: 1...1_000)),
        ("--threads", "LUCID_THREADS", integer(\.threads, in: 1...256)),
        ("--max-body-bytes", "LUCID_MAX_BODY_BYTES", integer(\.maxBodyBytes, in: 1024...(64 << 20))),
        ("--max-import-bytes", "LUCID_MAX_IMPORT_BYTES", integer(\.maxImportBytes, in: 1024...(1 << 30))),
        ("--registration", "LUCID_REGISTRATION", { config, text in
            APIConfiguration.Registration(rawValue: text).map { config.registration = $0 } != nil
        }),
        ("--max-connections", "LUCID_MAX_CONNECTIONS", { config, text in
            if text == "auto" { config.maxConnections = nil; return true }
            return integer(\.maxConnections, in: 16...1_000_000)(&config, text)
        }),
        ("--max-connections-per-address", "LUCID_MAX_CONNECTIONS_PER_ADDRESS", integer(\.maxConnectionsPerAddress, in: 1...1_000_000)),
        ("--header-timeout", "LUCID_HEADER_TIMEOUT", integer(\.headerTimeout, in: 1...3600)),
        ("--body-timeout", "LUCID_BODY_TIMEOUT", integer(\.bodyTimeout, in: 1...3600)),
        ("--idle-timeout", "LUCID_IDLE_TIMEOUT", integer(\.idleTimeout, in: 1...3600)),
        ("--max-concurrent-hashes", "LUCID_MAX_CONCURRENT_HASHES", integer(\.concurrentHashes, in: 1...256)),
        ("--session-cache-entries", "LUCID_SESSION_CACHE_ENTRIES", integer(\.sessionCacheEntries, in: 1...10_000_000)),
        ("--head-cache-bytes", "LUCID_HEAD_CACHE_BYTES", integer(\.headCacheBytes, in: (1 << 20)...(1 << 44))),
        ("--rendered-cache-bytes", "LUCID_RENDERED_CACHE_BYTES", integer(\.renderedCacheBytes, in: 0...(1 << 44))),
        ("--idempotency-key-lifetime", "LUCID_IDEMPOTENCY_KEY_LIFETIME", integer(\.idempotencyKeyLifetime, in: 60...31_536_000)),
        ("--max-streams-per-user", "LUCID_MAX_STREAMS_PER_USER", integer(\.maxStreamsPerUser, in: 1...10_000)),
        ("--stream-buffer-bytes", "LUCID_STREAM_BUFFER_BYTES", integer(\.streamBufferBytes, in: (1 << 20)...(1 << 40))),
        ("--log-format", "LUCID_LOG_FORMAT", { config, text in LogFormat(rawValue: text).map { config.logFormat = $0 } != nil }),
        ("--metrics-address", "LUCID_METRICS_ADDRESS", { config, text in
            ListenAddress(text).map { config.metricsAddress = $0 } != nil
        }),
        // Repeatable, and each value may be a comma-separated list, as the variable's is.
        ("--allow-origin", "LUCID_ALLOW_ORIGIN", { config, text in
            guard let origins = try? WebOrigin.list(text) else { return false }
            config.allowedOrigins += origins
            return true
        }),
    ]

    /// Why `value` is not a valid value of `option` (a flag or a variable), after a colon, for
    /// the options that can say more than that; empty for the others.
    private static func because(_ option: String, _ value: String) -> String {
        guard option == "--allow-origin" || option == "LUCID_ALLOW_ORIGIN" else { return "" }
        do throws(WebOrigin.Invalid) {
            _ = try WebOrigin.list(value)
            return ""
        } catch {
            return ": \(error.description)"
        }
    }

    /// Reads a whole number within `range` into the setting at `key`.
    private static func integer(
        _ key: any WritableKeyPath<Configuration, Int> & Sendable, in range: ClosedRange<Int>
    ) -> @Sendable (inout Configuration, String) -> Bool {
        { config, text in Int(text).flatMap { range.contains($0) ? $0 : nil }.map { config[keyPath: key] = $0 } != nil }
    }

    /// Reads a whole number within `range` into the optional setting at `key`.
    private static func integer(
        _ key: any WritableKeyPath<Configuration, Int?> & Sendable, in range: ClosedRange<Int>
    ) -> @Sendable (inout Configuration, String) -> Bool {
        { config, text in Int(text).flatMap { range.contains($0) ? $0 : nil }.map { config[keyPath: key] = $0 } != nil }
    }

    /// Reads `arguments` (after `serve`) over `environment`.
    init(arguments: [String], environment: [String: String]) throws(Invalid) {
        for option in Self.options {
            if let value = environment[option.variable], !option.apply(&self, value) {
                throw Invalid(description: "\(option.variable)=\(Self.quoted(value)) is not a valid value" + Self.because(option.variable, value))
            }
        }
        var rest = arguments[...]
        // `--allow-origin` adds to its own earlier values, but its first replaces the variable's,
        // as every flag's value replaces its variable's.
        var originsFlagged = false
        while let argument = rest.popFirst() {
            // `--flag=value` or `--flag value`; `--flag=` gives the empty value, which no option takes.
            let (flag, inline) = Self.split(argument)
            guard let option = Self.options.first(where: { $0.flag == flag }) else {
                throw Invalid(description: "unknown option \(Self.quoted(argument)); see lucid --help")
            }
            guard let value = inline ?? rest.popFirst() else { throw Invalid(description: "\(flag) needs a value") }
            if flag == "--allow-origin", !originsFlagged {
                allowedOrigins = []
                originsFlagged = true
            }
            guard option.apply(&self, value) else {
                throw Invalid(description: "\(flag) \(Self.quoted(value)) is not a valid value" + Self.because(flag, value))
            }
        }
    }

    /// An argument as flag and inline value: `--port=80` is (`--port`, `80`), `--port` is
    /// (`--port`, nil). Any string splits, the empty one and `=` included.
    static func split(_ argument: String) -> (flag: String, inline: String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// `text` as an error message quotes it: visible even when empty, control characters escaped.
    private static func quoted(_ text: String) -> String { "\"\(LogText.escaped(text))\"" }

    static let help = """
        lucid — a dream-journal server

        Usage:
          lucid serve [options]   run the server
          lucid backup [--database PATH] DEST
                                  copy a SQLite database to the new file DEST, consistently,
                                  while a server goes on using it (never replaces DEST)
          lucid check [--database PATH]
                                  check a SQLite database (a backup, or one in use): one line
                                  per fault, then a summary
          lucid journal COMMAND   your journal on this device, offline first, synced with a
                                  server (lucid journal --help)
          lucid --help            show this help
          lucid --version         show the version

        backup and check take the database as serve does (--database, LUCID_DATABASE, default
        data/lucid.sqlite), SQLite only: for PostgreSQL use pg_dump or pg_basebackup. They
        exit 0 when done and sound, 1 on a failure or a fault found, 64 on a bad command line.

        Options of serve (each also set by the environment variable beside it):
          --host ADDRESS          address to listen on (LUCID_HOST; default 127.0.0.1)
          --port PORT             port, 0 for any free one (LUCID_PORT; default 8080)
          --database PATH|URL     SQLite file, created with its folder, or a postgresql:// URL
                                  (LUCID_DATABASE; default data/lucid.sqlite)
          --database-connections N
                                  connections to PostgreSQL at most (LUCID_DATABASE_CONNECTIONS;
                                  default: 4 per core)
          --threads N             threads that answer requests (LUCID_THREADS; default: 16 per
                                  core, at most 256)
          --max-body-bytes N      largest request body (LUCID_MAX_BODY_BYTES; default 1048576)
          --max-import-bytes N    largest body of POST /v1/import, a whole exported journal
                                  (LUCID_MAX_IMPORT_BYTES; default 33554432)
          --registration MODE     open or closed (LUCID_REGISTRATION; default open)
          --max-connections N     open connections at most (LUCID_MAX_CONNECTIONS; default auto:
                                  what the open-file limit and memory allow)
          --max-connections-per-address N
                                  open connections from one address at most
                                  (LUCID_MAX_CONNECTIONS_PER_ADDRESS; default 256)
          --header-timeout S      seconds to send a request's head (LUCID_HEADER_TIMEOUT; default 15)
          --body-timeout S        seconds to send a request's body (LUCID_BODY_TIMEOUT; default 60)
          --idle-timeout S        seconds a silent connection is kept (LUCID_IDLE_TIMEOUT; default 60)
          --max-concurrent-hashes N
                                  password hashes at once, 64 MiB each; more sign-ins wait
                                  (LUCID_MAX_CONCURRENT_HASHES; default: 1 per core)
          --session-cache-entries N  sessions cached in memory (LUCID_SESSION_CACHE_ENTRIES; default 100000)
          --head-cache-bytes N    memory for the journals kept in memory, least recently used
                                  evicted first (LUCID_HEAD_CACHE_BYTES; default 268435456)
          --rendered-cache-bytes N
                                  memory for answers of reads already rendered (pages of dreams,
                                  models, dreams, history, versions), least recently used evicted
                                  first; 0 keeps none (LUCID_RENDERED_CACHE_BYTES; default 67108864)
          --idempotency-key-lifetime S
                                  seconds an Idempotency-Key's refusal is kept for retries; a
                                  success is kept as long as the journal's history
                                  (LUCID_IDEMPOTENCY_KEY_LIFETIME; default 86400)
          --max-streams-per-user N
                                  event streams (GET /v1/events) one user may hold open
                                  (LUCID_MAX_STREAMS_PER_USER; default 16)
          --stream-buffer-bytes N memory for events on their way to every event stream together;
                                  a stream whose event does not fit ends and catches up later
                                  (LUCID_STREAM_BUFFER_BYTES; default 268435456)
          --log-format FORMAT     text, or json: one JSON object per line, for a log shipper
                                  (LUCID_LOG_FORMAT; default text)
          --metrics-address HOST:PORT
                                  serve GET /metrics (Prometheus' text format) on a listener of
                                  its own, never on the public port; PORT 0 picks a free one
                                  (LUCID_METRICS_ADDRESS; default: off). Keep it private: e.g.
                                  127.0.0.1:9464, or [::1]:9464
          --allow-origin ORIGIN   let browser apps served from ORIGIN, scheme://host[:port]
                                  exactly, use the API (CORS); repeat it for more origins
                                  (LUCID_ALLOW_ORIGIN, comma-separated; default: none, and
                                  OPTIONS is 405). Never *: name each origin
        """
}
