import Foundation
import Testing
@testable import LucidAPI
@testable import LucidWire

/// The router and openapi.yaml must describe the same API.
@Suite struct OpenAPIRouteTests {
    static let specURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "openapi.yaml")

    /// The `METHOD /path` pairs under `paths:`, read from the YAML's fixed indentation
    /// (paths at two spaces, operations at four), which the validator keeps honest.
    static func specRoutes() throws -> Set<String> {
        let lines = try String(contentsOf: specURL, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var routes = Set<String>()
        var inPaths = false
        var path: String?
        for line in lines {
            if line == "paths:" { inPaths = true; continue }
            guard inPaths else { continue }
            if let first = line.first, first != " ", first != "#" { break }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let key = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "put", "post", "patch", "delete"].contains(key) { routes.insert("\(key.uppercased()) \(path)") }
            }
        }
        return routes
    }

    @Test func theRouterAndTheSpecHaveTheSameRoutes() throws {
        let router = Set(API.routeTable.map { "\($0.method) \($0.pattern)" })
        let spec = try Self.specRoutes()
        #expect(spec.count >= 20)
        #expect(router.subtracting(spec).isEmpty, "routes missing from openapi.yaml: \(router.subtracting(spec).sorted())")
        #expect(spec.subtracting(router).isEmpty, "routes in openapi.yaml the server lacks: \(spec.subtracting(router).sorted())")
    }

    /// Error answers point at the one `Problem` schema (so that generated clients can type
    /// them), which leaves a problem's status and title to the table in its description:
    /// the server must answer each type with the status and title the table gives.
    @Test func everyProblemTypeHasTheStatusAndTitleOfTheSpecsTable() throws {
        let spec = try String(contentsOf: Self.specURL, encoding: .utf8)
        var table: [String: (status: Int, title: String)] = [:]
        for line in spec.split(separator: "\n") {
            let cells = line.trimmingCharacters(in: .whitespaces).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[0].hasPrefix("`/problems/"), let status = Int(cells[1]) else { continue }
            table[String(cells[0].dropFirst("`/problems/".count).dropLast())] = (status, cells[2])
        }
        #expect(Set(table.keys) == Set(Problem.Kind.allCases.map(\.rawValue)))
        for kind in Problem.Kind.allCases {
            #expect(table[kind.rawValue]?.status == kind.status, "\(kind.rawValue)")
            #expect(table[kind.rawValue]?.title == kind.title, "\(kind.rawValue)")
        }
    }

    @Test func theServedSpecIsTheRepositoryFile() throws {
        #expect(EmbeddedOpenAPI.yaml == (try String(contentsOf: Self.specURL, encoding: .utf8)))
    }
}
