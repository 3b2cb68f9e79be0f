import Synchronization

/// A set of live objects, by identity, shared between threads: the open connections for the
/// watchdog, the exchanges in flight and the answers still waiting for `stop()`.
///
/// A registry can be closed once: from then on it is empty and refuses additions, so an
/// answer that starts waiting while `stop()` settles the others cannot slip past it.
final class Registry<Element: AnyObject & Sendable>: Sendable {
    /// `nil` once closed.
    private let elements = Mutex<[ObjectIdentifier: Element]?>([:])

    /// Adds `element`; returns false, adding nothing, once the registry is closed.
    @discardableResult
    func add(_ element: Element) -> Bool {
        elements.withLock { elements in
            guard elements != nil else { return false }
            elements![ObjectIdentifier(element)] = element
            return true
        }
    }

    func remove(_ element: Element) {
        _ = elements.withLock { $0?.removeValue(forKey: ObjectIdentifier(element)) }
    }

    var count: Int { elements.withLock { $0?.count ?? 0 } }

    var isEmpty: Bool { elements.withLock { $0?.isEmpty ?? true } }

    /// How many elements satisfy `predicate`, counted under the lock without copying them.
    func count(where predicate: (Element) -> Bool) -> Int {
        elements.withLock { elements in
            elements?.values.reduce(0) { $0 + (predicate($1) ? 1 : 0) } ?? 0
        }
    }

    /// A copy of the elements, to act on outside the lock.
    var all: [Element] { elements.withLock { $0.map { Array($0.values) } ?? [] } }

    /// Empties the registry for good and returns what it held, to act on outside the lock.
    func close() -> [Element] {
        elements.withLock { elements in
            defer { elements = nil }
            return elements.map { Array($0.values) } ?? []
        }
    }

    /// Runs `body` on every element while holding the lock, so that no element is removed
    /// meanwhile.
    func forEachLocked(_ body: (Element) -> Void) {
        elements.withLock { elements in
            guard let elements else { return }
            for element in elements.values { body(element) }
        }
    }
}
