import LucidModel
import Testing
@testable import LucidAPI

/// A new password is 8 to 1,024 code points, so at most 4,096 bytes reach argon2id.
@Suite struct PasswordRuleTests {
    static let refused = FieldError(pointer: "/password", detail: "must be 8 to 1024 Unicode code points")

    @Test(arguments: [
        "12345678", String(repeating: "p", count: 1024), String(repeating: "é", count: 1024),
        String(repeating: "🦄", count: 1024), "e\u{301}e\u{301}e\u{301}e\u{301}",
    ])
    func accepted(_ password: String) {
        #expect(API.passwordError(password) == nil)
        #expect(password.utf8.count <= 4096)
    }

    @Test(arguments: [
        "", "1234567", String(repeating: "p", count: 1025), String(repeating: "🦄", count: 1025),
        // 1,024 characters, but 2,048 code points: the old rule let through up to a character's worth of bytes each.
        String(repeating: "e\u{301}", count: 1024),
        "x" + String(repeating: "\u{301}", count: 400_000),
    ])
    func refused(_ password: String) {
        #expect(API.passwordError(password) == Self.refused)
    }
}
