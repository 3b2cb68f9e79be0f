import Testing
@testable import LucidAPI

@Suite struct ClientNetworkTests {
    @Test(arguments: [
        ("127.0.0.2", "127.0.0.2"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:0DB8:0001:0002:ffff::1", "2001:db8:1:2::/64"),
        ("2001:db8::1", "2001:db8:0:0::/64"),
        ("::1", "0:0:0:0::/64"),
        ("::", "0:0:0:0::/64"),
        ("fe80::1%eth0", "fe80:0:0:0::/64"),
        ("::ffff:192.0.2.9", "192.0.2.9"),
        ("64:ff9b::192.0.2.9", "64:ff9b:0:0::/64"),
        ("", ""),
        ("1::2::3", "1::2::3"),
        ("12345::", "12345::"),
        ("::ffff:1.2.3.+4", "::ffff:1.2.3.+4"),
    ])
    func addressesMapToTheirNetwork(_ address: String, _ network: String) {
        #expect(ClientNetwork(address).key == network)
    }

    @Test func everyAddressOfOneSlash64IsOneNetwork() {
        #expect(ClientNetwork("2001:db8:aa:bb::1") == ClientNetwork("2001:db8:aa:bb:ffff:ffff:ffff:ffff"))
        #expect(ClientNetwork("2001:db8:aa:bb::1") != ClientNetwork("2001:db8:aa:bc::1"))
    }

    @Test func anUnreadableAddressIsCutTo64Bytes() {
        #expect(ClientNetwork(String(repeating: "z", count: 1_000)).key == String(repeating: "z", count: 64))
    }
}
