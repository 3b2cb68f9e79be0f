import Synchronization

/// A set of live objects, by identity, shared between threads: the open connections for the
/// watchdog, the exchanges in flight for `stop()`.
final class Registry<Element: AnyObject & Sendable>: Sendable {
    private let elements = Mutex<[ObjectIdentifier: Element]>([:])

    func add(_ element: Element) {
        elements.withLock { $0[ObjectIdentifier(element)] = element }
    }

    func remove(_ element: Element) {
        _ = elements.withLock { $0.removeValue(forKey: ObjectIdentifier(element)) }
    }

    var count: Int { elements.withLock { $0.count } }

    var isEmpty: Bool { elements.withLock { $0.isEmpty } }

    /// A copy of the elements, to act on outside the lock.
    var all: [Element] { elements.withLock { Array($0.values) } }

    /// Runs `body` on every element while holding the lock, so that no element is removed
    /// meanwhile.
    func forEachLocked(_ body: (Element) -> Void) {
        elements.withLock { elements in
            for element in elements.values { body(element) }
        }
    }
}
