import Foundation
import Testing
import LucidJSON

@Suite struct UUIDTextTests {
    @Test func anIdIsWrittenAsFoundationWritesItInLowercase() {
        let ids = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                   UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
            + (0..<1_000).map { _ in UUID() }
        for id in ids { #expect(id.lowercasedString == id.uuidString.lowercased()) }
        #expect(UUID(uuidString: "3F9A0C1D-0000-4000-8000-00000000000A")?.lowercasedString == "3f9a0c1d-0000-4000-8000-00000000000a")
        // A document writes an id the same way, in quotes.
        for id in ids {
            var writer = JSONWriter()
            writer.uuid(id)
            #expect(writer.bytes == Array("\"\(id.lowercasedString)\"".utf8))
        }
    }
}
