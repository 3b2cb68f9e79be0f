/// Reading a document piece by piece, for bodies too big to hold as one `JSONValue`
/// (an import of 32 MiB): the caller walks objects and arrays itself, parses into values
/// only the small pieces it needs, and skips the rest, which is checked against the
/// grammar but never built. Every rule of `parse(_:)` holds for what is parsed; the parts
/// skipped are checked for syntax and depth only (a duplicate member name among them is
/// not looked for: nothing reads them, and the set of names would cost more than they do).
extension JSONParser {
    /// What a value is, told by its first byte.
    package enum Kind: Equatable {
        case object, array, string, number, bool, null

        /// As error messages name it: "an object", "a string", …
        package var description: String {
            switch self {
            case .object: "an object"
            case .array: "an array"
            case .string: "a string"
            case .number: "a number"
            case .bool: "a boolean"
            case .null: "null"
            }
        }
    }

    /// A parser for reading `bytes` piece by piece. The caller has checked they are UTF-8.
    package static func pieces(_ bytes: [UInt8]) -> JSONParser {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        return parser
    }

    /// The kind of the value that begins here.
    package func kind() throws(JSONSyntaxError) -> Kind {
        guard index < bytes.count else { throw error("unexpected end of the document") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw error("unexpected character")
        }
    }

    /// Reads the `{` of the object that begins here.
    package mutating func openObject() throws(JSONSyntaxError) {
        guard try kind() == .object else { throw error("expected an object") }
        try nest()
        index += 1
    }

    /// Reads on to the value of the next member of the object opened last, and answers the
    /// member's name; `nil` once the object's `}` is read. `first` says whether no member was
    /// read yet. Duplicate names are the caller's to refuse (see `duplicate(_:)`), among the
    /// members it reads: a set of every name of an object of millions of members that nothing
    /// reads would cost more than the body.
    package mutating func nextMember(first: Bool) throws(JSONSyntaxError) -> String? {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of the document") }
        if bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return nil
        }
        if !first {
            guard bytes[index] == UInt8(ascii: ",") else { throw error("expected ',' or '}'") }
            index += 1
            skipWhitespace()
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
        let name = try string()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
        index += 1
        skipWhitespace()
        return name
    }

    /// The error for a member named twice, as `parse(_:)` reports it.
    package func duplicate(_ name: String) -> JSONSyntaxError { error("duplicate member \"\(name)\"") }

    /// Reads the `[` of the array that begins here.
    package mutating func openArray() throws(JSONSyntaxError) {
        guard try kind() == .array else { throw error("expected an array") }
        try nest()
        index += 1
    }

    /// Reads on to the next element of the array opened last: true if there is one (the
    /// parser stands at it), false once the array's `]` is read. `first` says whether no
    /// element was read yet.
    package mutating func nextElement(first: Bool) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of the document") }
        if bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return false
        }
        if !first {
            guard bytes[index] == UInt8(ascii: ",") else { throw error("expected ',' or ']'") }
            index += 1
            skipWhitespace()
            // `[1,]` is not JSON: an element must follow the comma.
            guard index < bytes.count, bytes[index] != UInt8(ascii: "]") else { throw error("unexpected character") }
        }
        return true
    }

    /// Skips the value that begins here, checking its grammar, and answers how many values
    /// it holds (itself, and every member and element within, at any depth).
    @discardableResult
    package mutating func skip() throws(JSONSyntaxError) -> Int {
        switch try kind() {
        case .object:
            try openObject()
            var count = 1, first = true
            while try nextMember(first: first) != nil {
                first = false
                count += try skip()
            }
            return count
        case .array:
            try openArray()
            var count = 1, first = true
            while try nextElement(first: first) {
                first = false
                count += try skip()
            }
            return count
        case .string:
            _ = try string()
            return 1
        case .number:
            _ = try number()
            return 1
        case .bool, .null:
            _ = try value()
            return 1
        }
    }

    /// The value that begins here, if it holds at most `limit` values; otherwise it is
    /// skipped and the answer is `nil`. A member of 10 million numbers costs a count, not
    /// 10 million values in memory.
    package mutating func value(atMost limit: Int) throws(JSONSyntaxError) -> JSONValue? {
        let start = index
        guard try skip() <= limit else { return nil }
        index = start
        return try value()
    }

    /// Reads the white space after the document and checks that nothing else follows.
    package mutating func finish() throws(JSONSyntaxError) {
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the document") }
    }
}
