public import LucidModel

/// The query parameters of a request, in the order sent, and how the API reads them: each
/// reading refuses a value that is not what it should be with the 400 that names it. The
/// server reads a request's parameters through these, and a client that answers a request
/// itself can read the same ones and refuse them with the same problems.
public struct QueryParameters: Sendable {
    /// Names and values, percent-escapes decoded; names may repeat.
    public var pairs: [(name: String, value: String)]

    /// The parameters `pairs`, in the order sent.
    public init(_ pairs: [(name: String, value: String)]) {
        self.pairs = pairs
    }

    /// The value of the first parameter called `name` (case-sensitive, as URLs are).
    public func value(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value of the parameter `name`, in the order sent.
    public func values(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// `name` as a day, `YYYY-MM-DD`, or nil when absent.
    public func day(_ name: String) throws(Problem) -> Day? {
        guard let text = value(name) else { return nil }
        guard let day = Day(text) else { throw Problem.badParameter(name, "must be a date YYYY-MM-DD") }
        return day
    }

    /// `from` and `to` as days, each optional, `to` not before `from`.
    public func days() throws(Problem) -> (from: Day?, to: Day?) {
        let from = try day("from"), to = try day("to")
        if let from, let to, from > to { throw Problem.badParameter("to", "must not be before from") }
        return (from, to)
    }

    /// `name` as an integer within `range`, or nil when absent.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws(Problem) -> Int? {
        guard let text = value(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw Problem.badParameter(name, "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
