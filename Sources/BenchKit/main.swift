import Foundation
@_spi(Testing) import LucidKit
import LucidKitTesting
import LucidModel

// LucidKit's costs on a device: a local change at 10,000 dreams with 1,000 pending, the
// merged view's rebuild after a new server version, 10,000 offline changes synced by
// `lucid journal sync` over loopback, and 1,000 sent in batches against one request each.
// Usage: lucid-bench-kit SERVER_URL LUCID_BINARY (script/bench-kit starts the server).

guard CommandLine.arguments.count == 3, let server = URL(string: CommandLine.arguments[1]) else {
    print("usage: lucid-bench-kit http://127.0.0.1:PORT path/to/lucid")
    exit(64)
}
let lucid = CommandLine.arguments[2]

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-bench-kit-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))]
}

func dream(_ index: Int) -> Dream {
    Dream(id: UUID(), description: "Dream number \(index) of the benchmark, over the violet tide", creature: .dragon,
          createdAt: .now)
}

func report(_ name: String, _ samples: [Double]) {
    print(String(format: "%-44@ p50 %7.3f ms   p99 %7.3f ms   (%d samples)", name as NSString, percentile(samples, 0.5), percentile(samples, 0.99), samples.count))
}

// --- A local change at 10,000 dreams with 1,000 pending

let account = AccountRecord(server: server, username: "bench", token: nil)
let store = try DeviceStore(path: folder.appendingPathComponent("device.sqlite").path, creatingFor: account)
var big = ModelDiff()
big.inserted = (0..<10_000).map { ModelDiff.Insertion(index: $0, dream: dream($0)) }
_ = try store.update { (journal) throws(Never) in journal.receive(version: 1, diff: big) }.get()
let client = JournalClient(store: store, transport: URLSessionTransport())
let clock = ContinuousClock()

/// Performs and undoes 300 edits at `pending` pending changes, reporting each perform's time.
func measurePerforms(pending: Int) throws {
    for index in client.view.pending.count..<pending { try client.perform(.addDream(dream(100_000 + index), index: index)) }
    var performs: [Double] = []
    for index in 0..<300 {
        let target = client.view.merged.dreams[index * 7 % 10_000].id
        let elapsed = try clock.measure {
            try client.perform(.updateDream(id: target, changes: DreamChanges(lucid: index % 2 == 0), at: .now))
        }
        performs.append(milliseconds(elapsed))
        try client.undo()
    }
    report("perform and persist (10,000 dreams, \(pending) pending)", performs)
}
try measurePerforms(pending: 100)
try measurePerforms(pending: 1_000)

// --- The merged view's rebuild after a new server version (in memory, and persisted)

var rebuilds: [Double] = [], persisted: [Double] = []
var version = 1
for index in 0..<100 {
    var diff = ModelDiff()
    var changed = client.view.merged.dreams[5_000 + index]
    changed.description += " (edited on another device)"
    diff.updated = [changed]
    version += 1
    var journal = store.journal
    rebuilds.append(milliseconds(clock.measure { _ = journal.receive(version: version, diff: diff) }))
    let next = version
    persisted.append(milliseconds(try clock.measure {
        _ = try store.update { (journal) throws(Never) in journal.receive(version: next, diff: diff) }.get()
    }))
}
report("merged view rebuilt after a version", rebuilds)
report("the same, written to the device's file", persisted)

// --- 10,000 offline changes synced by `lucid journal sync`

/// CPU seconds (user and system) of this process's children that have ended, and the
/// largest resident set of any of them, in KiB.
func childrenUsage() -> (cpu: Double, maxKiB: Int) {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return (seconds(usage.ru_utime) + seconds(usage.ru_stime), usage.ru_maxrss)
}

let state = folder.appendingPathComponent("cli")
let cliAccounts = DeviceAccounts(folder: state, transport: URLSessionTransport())
_ = try await cliAccounts.register(server: server, username: "cli\(UInt32.random(in: 0...UInt32.max))", password: "bench password \(UUID())")
guard let cliStore = try cliAccounts.current() else { fatalError("registered, so signed in") }
let offline = JournalClient(store: cliStore, transport: URLSessionTransport())
let backlog = 10_000
var queued: [Double] = []
for index in 0..<backlog { queued.append(milliseconds(try clock.measure { try offline.perform(.addDream(dream(index))) })) }
report("perform and persist, queueing 10,000 offline", queued)
let usageBefore = childrenUsage()
let syncStart = clock.now
let sync = Process()
sync.executableURL = URL(fileURLWithPath: lucid)
sync.arguments = ["journal", "sync", "--state", state.path]
try sync.run()
sync.waitUntilExit()
let syncSeconds = milliseconds(clock.now - syncStart) / 1_000
let usageAfter = childrenUsage()
try cliStore.refresh()
print(String(format: "lucid journal sync of 10,000 offline changes: %.2f s, %.0f changes/s, %.0f µs of its CPU a change, %d MiB at most, exit %d, version %d",
             syncSeconds, Double(backlog) / syncSeconds, (usageAfter.cpu - usageBefore.cpu) / Double(backlog) * 1e6, usageAfter.maxKiB / 1024,
             sync.terminationStatus, cliStore.journal.server.version))

// --- 1,000 offline changes in batches, and one request each (a server without batches)

for batches in [true, false] {
    // An older server refuses the batch route (405): the client sends each change alone.
    let counting = FaultInjectingTransport(URLSessionTransport()) { request in
        !batches && request.method == "POST" && request.target == "/v1/changes" ? .answer(status: 405) : nil
    }
    let accounts = DeviceAccounts(folder: folder.appendingPathComponent(batches ? "batches" : "alone"), transport: counting)
    _ = try await accounts.register(server: server, username: "bench\(UInt32.random(in: 0...UInt32.max))", password: "bench password \(UUID())")
    guard let syncStore = try accounts.current() else { fatalError("registered, so signed in") }
    let syncer = JournalClient(store: syncStore, transport: counting)
    for index in 0..<1_000 { try syncer.perform(.addDream(dream(index))) }
    let before = counting.sentAndFaulted
    let start = clock.now
    let result = await syncer.sync()
    let seconds = milliseconds(clock.now - start) / 1_000
    print(String(format: "sync of 1,000 offline changes %@: %.2f s, %d requests, %@, version %d",
                 (batches ? "in batches" : "one request each") as NSString, seconds,
                 counting.sentAndFaulted.sent - before.sent + counting.sentAndFaulted.faulted - before.faulted,
                 "\(result)" as NSString, syncer.view.version))
}
