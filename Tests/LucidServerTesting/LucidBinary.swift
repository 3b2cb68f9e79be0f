package import Foundation

/// The `lucid` binary, built beside the test bundle by `swift build --build-tests`.
package enum LucidBinary {
    package static let url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("lucid")

    /// Runs `lucid` with `arguments` to the end (at most 20 s), returning status, stdout and stderr.
    package static func run(_ arguments: [String]) throws -> (status: Int32?, output: String, errors: String) {
        let child = try ChildProcess(url, arguments)
        let status = child.waitForExit(seconds: 20)
        return (status, child.output, child.errors)
    }
}
