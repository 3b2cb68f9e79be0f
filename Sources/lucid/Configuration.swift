import LucidAPI
import LucidHTTP
import LucidStore

/// The settings of `lucid serve`, from flags, then `LUCID_*` environment variables, then defaults.
struct Configuration: Equatable {
    var host = "127.0.0.1"
    var port: UInt16 = 8080
    var database = "data/lucid.sqlite"
    /// Four request threads per core: a thread waits while its write syncs to disk, and the
    /// writes that queue meanwhile share the next sync, so more threads than cores keep the
    /// disk busy without adding CPU work.
    var threads = 4 * ServerConfiguration.activeProcessorCount
    var maxBodyBytes = 1 << 20
    var registration = APIConfiguration.Registration.open
    /// How much memory the heads of recently used journals may take, estimated from their dreams.
    var headCacheBytes = JournalStore.defaultHeadCacheBytes

    /// Why the command line could not be read.
    struct Invalid: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// The option names, their variables, and how each is read.
    private static let options: [(flag: String, variable: String, apply: @Sendable (inout Configuration, String) -> Bool)] = [
        ("--host", "LUCID_HOST", { $0.host = $1; return !$1.isEmpty }),
        ("--port", "LUCID_PORT", { config, text in UInt16(text).map { config.port = $0 } != nil }),
        ("--database", "LUCID_DATABASE", { $0.database = $1; return !$1.isEmpty }),
        ("--threads", "LUCID_THREADS", { config, text in
            Int(text).flatMap { (1...256).contains($0) ? $0 : nil }.map { config.threads = $0 } != nil
        }),
        ("--max-body-bytes", "LUCID_MAX_BODY_BYTES", { config, text in
            Int(text).flatMap { (1024...(64 << 20)).contains($0) ? $0 : nil }.map { config.maxBodyBytes = $0 } != nil
        }),
        ("--registration", "LUCID_REGISTRATION", { config, text in
            APIConfiguration.Registration(rawValue: text).map { config.registration = $0 } != nil
        }),
        ("--head-cache-bytes", "LUCID_HEAD_CACHE_BYTES", { config, text in
            Int(text).flatMap { ((1 << 20)...(1 << 44)).contains($0) ? $0 : nil }.map { config.headCacheBytes = $0 } != nil
        }),
    ]

    /// Reads `arguments` (after `serve`) over `environment`.
    init(arguments: [String], environment: [String: String]) throws(Invalid) {
        for option in Self.options {
            if let value = environment[option.variable], !option.apply(&self, value) {
                throw Invalid(description: "\(option.variable)=\(value) is not a valid value")
            }
        }
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let (flag, inline) = argument.split(separator: "=", maxSplits: 1).map(String.init).pair
            guard let option = Self.options.first(where: { $0.flag == flag }) else {
                throw Invalid(description: "unknown option \(argument); see lucid --help")
            }
            guard let value = inline ?? rest.popFirst() else { throw Invalid(description: "\(flag) needs a value") }
            guard option.apply(&self, value) else { throw Invalid(description: "\(flag) \(value) is not a valid value") }
        }
    }

    static let help = """
        lucid — a dream-journal server

        Usage:
          lucid serve [options]   run the server
          lucid --help            show this help
          lucid --version         show the version

        Options of serve (each also set by the environment variable beside it):
          --host ADDRESS          address to listen on (LUCID_HOST; default 127.0.0.1)
          --port PORT             port, 0 for any free one (LUCID_PORT; default 8080)
          --database PATH         SQLite file, created with its folder (LUCID_DATABASE; default data/lucid.sqlite)
          --threads N             request threads (LUCID_THREADS; default: 4 per core)
          --max-body-bytes N      largest request body (LUCID_MAX_BODY_BYTES; default 1048576)
          --registration MODE     open or closed (LUCID_REGISTRATION; default open)
          --head-cache-bytes N    memory for the journals kept in memory, least recently used
                                  evicted first (LUCID_HEAD_CACHE_BYTES; default 268435456)
        """
}

extension Array where Element == String {
    /// The first two elements, the second optional.
    fileprivate var pair: (String, String?) { (self[0], count > 1 ? self[1] : nil) }
}
