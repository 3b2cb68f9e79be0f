import Foundation
import LucidAPI
import LucidHTTP
import LucidStore

// lucid: the command line. Everything here is wiring; the work happens in the modules.

let version = "1.0.0"
let arguments = Array(CommandLine.arguments.dropFirst())
StandardStream.prepare()

// `lucid serve --help`, `lucid backup -h`: the one help text, which covers every command.
let asksForHelp = arguments.count > 1 && arguments.first != "journal" && arguments.dropFirst().contains { $0 == "--help" || $0 == "-h" }

switch asksForHelp ? "--help" : arguments.first {
case "--help", "-h", "help":
    print(Configuration.help)
case "--version":
    print("lucid \(version)")
case "serve":
    do {
        let configuration = try Configuration(
            arguments: Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
        exit(Service.run(configuration))
    } catch {
        StandardStream.error("lucid: \(error)\n")
        exit(64)
    }
case "backup":
    exit(BackupCommand.run(Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
case "check":
    exit(CheckCommand.run(Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
case "journal":
    exit(await JournalCommand.run(Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
default:
    StandardStream.error("lucid: expected serve, backup, check, journal, --help or --version\n\n\(Configuration.help)\n")
    exit(64)
}
