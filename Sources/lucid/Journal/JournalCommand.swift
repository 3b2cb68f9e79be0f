import Foundation
import LucidJSON
import LucidKit
import LucidModel

/// `lucid journal`: the offline client for the terminal, on LucidKit. Local commands never
/// touch the network; `sync` and `watch` do.
enum JournalCommand {
    /// Exit statuses (sysexits): usage, a refused local change, unreachable, sign-in needed.
    static let usage: Int32 = 64, refused: Int32 = 65, unavailable: Int32 = 75, needsSignIn: Int32 = 77

    static let commonFlags: Set<String> = ["json"]
    static let commonOptions: Set<String> = ["state"]

    static func run(_ arguments: [String], environment: [String: String]) async -> Int32 {
        if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) {
            StandardStream.output(help + "\n")
            return 0
        }
        guard let command = arguments.first else {
            StandardStream.error("lucid journal: expected a command\n\n\(help)\n")
            return usage
        }
        do {
            let context = JournalContext(command: command, environment: environment)
            return try await dispatch(command, Array(arguments.dropFirst()), context)
        } catch let error as JournalArguments.UsageError {
            StandardStream.error("lucid journal \(command): \(error)\n")
            return usage
        } catch let error as ClientError {
            StandardStream.error("lucid journal \(command): \(error)\n")
            return refused
        } catch let error as AccountError {
            StandardStream.error("lucid journal \(command): \(error)\n")
            switch error {
            case .unreachable: return unavailable
            case .signedOut: return needsSignIn
            default: return refused
            }
        } catch {
            StandardStream.error("lucid journal \(command): \(error)\n")
            return refused
        }
    }

    private static func parse(_ arguments: [String], flags: Set<String> = [], options: Set<String> = []) throws -> JournalArguments {
        try JournalArguments(arguments, flags: flags.union(commonFlags), options: options.union(commonOptions))
    }

    private static func dispatch(_ command: String, _ rest: [String], _ context: JournalContext) async throws -> Int32 {
        switch command {
        case "register", "sign-in":
            let arguments = try parse(rest, options: ["server", "username"])
            let accounts = try context.accounts(arguments)
            guard let serverText = arguments.value("server"), let server = URL(string: serverText), server.scheme != nil else {
                throw JournalArguments.UsageError("--server URL is required")
            }
            guard let username = arguments.value("username") else { throw JournalArguments.UsageError("--username NAME is required") }
            let password = try context.password()
            let store = command == "register"
                ? try await accounts.register(server: server, username: username, password: password)
                : try await accounts.signIn(server: server, username: username, password: password)
            JournalOutput.signedIn(store, json: arguments.has("json"))
            return 0
        case "sign-out":
            let arguments = try parse(rest, flags: ["discard-pending"])
            try await context.accounts(arguments).signOut(discardingPending: arguments.has("discard-pending"))
            JournalOutput.done("Signed out.", json: arguments.has("json")) { $0.key("signedOut"); $0.bool(true) }
            return 0
        case "add":
            let arguments = try parse(rest, flags: ["lucid"], options: ["creature", "effect", "tag", "count"])
            let client = try context.client(arguments)
            let now = Timestamp.now
            let dream = Dream(
                id: UUID.timeOrdered(at: now), description: try arguments.word(0, "the dream's description"),
                creature: try arguments.creature("creature") ?? client.view.merged.favoriteCreature,
                effects: try arguments.effects() ?? [], numberOfCreatures: try arguments.integer("count") ?? 1,
                lucid: arguments.has("lucid"), tags: arguments.all("tag"), createdAt: now)
            try client.perform(.addDream(dream))
            let added = client.view.merged.dream(dream.id) ?? dream
            JournalOutput.dream(added, json: arguments.has("json"))
            return 0
        case "edit":
            let arguments = try parse(rest, options: ["description", "creature", "effect", "tag", "lucid", "count"])
            let client = try context.client(arguments)
            let id = try JournalOutput.dreamID(try arguments.word(0, "a dream's id"), in: client.view.merged)
            let changes = DreamChanges(
                description: arguments.value("description"), creature: try arguments.creature("creature"),
                effects: try arguments.effects(), numberOfCreatures: try arguments.integer("count"),
                lucid: try arguments.boolean("lucid"), tags: arguments.all("tag").isEmpty ? nil : arguments.all("tag"))
            try client.perform(.updateDream(id: id, changes: changes, at: .now))
            if let dream = client.view.merged.dream(id) { JournalOutput.dream(dream, json: arguments.has("json")) }
            return 0
        case "delete":
            let arguments = try parse(rest)
            let client = try context.client(arguments)
            let id = try JournalOutput.dreamID(try arguments.word(0, "a dream's id"), in: client.view.merged)
            try client.perform(.deleteDream(id: id))
            JournalOutput.done("Deleted \(id.uuidString.lowercased()).", json: arguments.has("json")) { $0.key("deleted"); $0.uuid(id) }
            return 0
        case "favorite":
            let arguments = try parse(rest)
            let client = try context.client(arguments)
            let creature = try JournalArguments.creature(try arguments.word(0, "a creature"))
            try client.perform(.setFavoriteCreature(creature))
            JournalOutput.done("Favorite creature: \(creature.displayName).", json: arguments.has("json")) {
                $0.key("favoriteCreature"); $0.value(creature)
            }
            return 0
        case "undo", "redo":
            let arguments = try parse(rest)
            let client = try context.client(arguments)
            let outcome = command == "undo" ? try client.undo() : try client.redo()
            JournalOutput.step(command, outcome, json: arguments.has("json"))
            return 0
        case "list":
            let arguments = try parse(rest)
            JournalOutput.list(try context.client(arguments).view, json: arguments.has("json"))
            return 0
        case "status":
            let arguments = try parse(rest)
            let client = try context.client(arguments)
            JournalOutput.status(client.view, account: client.store.account, json: arguments.has("json"))
            return 0
        case "rejected":
            let arguments = try parse(rest)
            let client = try context.client(arguments)
            let action = try arguments.word(0, "dismiss or retry"), key = try arguments.word(1, "a rejected change's key")
            switch action {
            case "dismiss":
                try client.dismiss(key)
                JournalOutput.done("Dismissed \(key).", json: arguments.has("json")) { $0.key("dismissed"); $0.string(key) }
            case "retry":
                let change = try client.retry(key)
                JournalOutput.done("Queued again as \(change.key).", json: arguments.has("json")) { $0.key("key"); $0.string(change.key) }
            default:
                throw JournalArguments.UsageError("expected dismiss or retry, not \(action)")
            }
            return 0
        case "sync":
            let arguments = try parse(rest)
            let client = try context.client(arguments)
            let result = await client.sync()
            JournalOutput.synced(result, client.view, json: arguments.has("json"))
            return exitStatus(result)
        case "watch":
            let arguments = try parse(rest)
            let client = try context.client(arguments)
            let printing = Task {
                var last: JournalView?
                for await view in client.live.view({ $0 }) {
                    JournalOutput.watched(view, after: last, json: arguments.has("json"))
                    last = view
                }
            }
            let result = await client.run()
            printing.cancel()
            return exitStatus(result)
        case "search", "stats":
            let arguments = try parse(rest, options: Set(JournalQueries.parameterNames.keys))
            return try JournalQueries.run(command, arguments, client: try context.client(arguments))
        case "help", "--help", "-h":
            StandardStream.output(help + "\n")
            return 0
        default:
            throw JournalArguments.UsageError("unknown command \(command)\n\n\(help)")
        }
    }

    private static func exitStatus(_ result: SyncResult) -> Int32 {
        switch result {
        case .synced: 0
        case .unreachable: unavailable
        case .needsSignIn: needsSignIn
        }
    }

    static let help = """
        lucid journal: your journal on this device, offline first; changes reach the server on sync.

          lucid journal register|sign-in --server URL --username NAME   (password: LUCID_PASSWORD, or a line on stdin)
          lucid journal sign-out [--discard-pending]
          lucid journal add DESCRIPTION [--creature KIND[:COLOR]] [--effect E]... [--tag T]... [--lucid] [--count N]
          lucid journal edit ID [--description T] [--creature KIND[:COLOR]] [--effect E]... [--tag T]... [--lucid true|false] [--count N]
          lucid journal delete ID | favorite KIND[:COLOR] | undo | redo
          lucid journal list | status | stats [--from D] [--to D]
          lucid journal search [--q WORDS] [--creature K] [--effect E]... [--tag T]... [--lucid B] [--from D] [--to D] [--month-day MM-DD]
          lucid journal rejected dismiss|retry KEY
          lucid journal sync      exit 0: nothing left pending; 75: server unreachable or failing; 77: sign in again
          lucid journal watch     follow the server and send changes as they are made, until interrupted

        Every command takes --state DIR (default $LUCID_STATE, else $XDG_DATA_HOME/lucid, else ~/.local/share/lucid) and --json.
        An ID may be shortened to any unique part at its start or end, such as the 8 digits the list shows.
        """
}

/// Where a command finds its accounts and its password.
struct JournalContext {
    let command: String
    let environment: [String: String]

    func folder(_ arguments: JournalArguments) -> URL {
        if let state = arguments.value("state") ?? environment["LUCID_STATE"] { return URL(fileURLWithPath: state) }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return URL(fileURLWithPath: data).appendingPathComponent("lucid") }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/lucid")
    }

    /// Its own for `http://` servers, `URLSession` for `https://` ones (see `PlainHTTPTransport`).
    var transport: any Transport { CommandTransport.shared }

    func accounts(_ arguments: JournalArguments) throws -> DeviceAccounts {
        DeviceAccounts(folder: folder(arguments), transport: transport, deviceName: "lucid journal")
    }

    /// A client of the account in use.
    func client(_ arguments: JournalArguments) throws -> JournalClient {
        guard let store = try accounts(arguments).current() else { throw AccountError.signedOut }
        return JournalClient(store: store, transport: transport)
    }

    /// `LUCID_PASSWORD`, else one line of standard input.
    func password() throws -> String {
        if let password = environment["LUCID_PASSWORD"] { return password }
        guard let line = readLine(strippingNewline: true) else { throw JournalArguments.UsageError("no password: set LUCID_PASSWORD or give it on standard input") }
        return line
    }
}
