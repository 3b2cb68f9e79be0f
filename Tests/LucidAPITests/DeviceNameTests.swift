import LucidModel
import Testing
@testable import LucidAPI

/// The names sessions get from a client's `User-Agent`, and the rules of a given `deviceName`.
@Suite struct DeviceNameTests {
    @Test(arguments: [
        ("Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0", "Firefox on Linux"),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
         "Safari on iPhone"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
         "Safari on macOS"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 Edg/125.0.0.0",
         "Edge on Windows"),
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Mobile Safari/537.36",
         "Chrome on Android"),
        ("Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/125.0 Mobile/15E148 Safari/604.1",
         "Chrome on iPad"),
        ("Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36",
         "Chrome on ChromeOS"),
        ("curl/8.5.0", "curl 8.5"),
        ("Wget/1.21.3", "Wget 1.21"),
        ("python-requests/2.31.0", "python-requests 2.31"),
        ("HTTPie/3.2.2", "HTTPie 3.2"),
        ("okhttp/4.12.0", "okhttp 4.12"),
        ("Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP2A)", "Dalvik 2.1 on Android"),
        ("Lucid/3 CFNetwork/1494.0.7 Darwin/23.4.0", "Lucid 3"),
        ("Lucid/1.0b3", "Lucid 1.0"),
        ("NoVersion", "NoVersion"),
        ("", "Unknown device"),
        ("   ", "Unknown device"),
        ("(just a comment)", "Unknown device"),
        ("日本語/1.0", "Unknown device"),
    ])
    func aUserAgentGivesAShortReadableName(userAgent: String, name: String) {
        #expect(DeviceName.derived(fromUserAgent: userAgent) == name)
    }

    @Test func noUserAgentIsAnUnknownDevice() {
        #expect(DeviceName.derived(fromUserAgent: nil) == "Unknown device")
    }

    /// Whatever a client sends, the name is short, printable ASCII, and a valid deviceName.
    @Test func aHostileUserAgentStillGivesABoundedPrintableName() {
        let hostile = [
            String(repeating: "A", count: 100_000) + "/" + String(repeating: "9", count: 10_000),
            "evil\u{1B}[31m/1.0\u{7}", "a\u{202E}b/2.0", "x/" + String(repeating: "1.", count: 5_000),
            "Mozilla/5.0 (" + String(repeating: "(", count: 10_000), "\u{0}/\u{0}",
        ]
        for userAgent in hostile {
            let name = DeviceName.derived(fromUserAgent: userAgent)
            #expect(name.utf8.count <= 70, "\(name)")
            #expect(name.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }, "\(name)")
            #expect(DeviceName.error(name) == nil, "\(name)")
        }
        #expect(DeviceName.derived(fromUserAgent: "evil\u{1B}[31m/1.0\u{7}") == "evil31m 1.0")
    }

    @Test func aGivenNameIsOneToAHundredCodePointsWithoutControls() {
        #expect(DeviceName.error("Work laptop") == nil)
        #expect(DeviceName.error(String(repeating: "e\u{301}", count: 50)) == nil)  // 100 code points in 50 characters
        #expect(DeviceName.error(String(repeating: "x", count: 100)) == nil)
        #expect(DeviceName.error("") != nil)
        #expect(DeviceName.error(String(repeating: "x", count: 101)) != nil)
        #expect(DeviceName.error(String(repeating: "e\u{301}", count: 51)) != nil)
        for control in ["\u{0}", "\n", "\u{1B}", "\u{7F}", "\u{85}", "\u{9F}", "\u{061C}", "\u{200E}", "\u{200F}", "\u{2028}",
                        "\u{2029}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}"] {
            #expect(DeviceName.error("a\(control)b") != nil, "\(control.unicodeScalars.first!.value)")
        }
    }
}
