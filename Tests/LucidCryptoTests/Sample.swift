import Testing

/// A test argument with a short label, so logs name the case instead of printing a long or
/// unprintable string.
struct Sample: Sendable, CustomTestStringConvertible {
    let label: String
    let text: String

    init(_ label: String, _ text: String) {
        self.label = label
        self.text = text
    }

    var testDescription: String { label }
}
