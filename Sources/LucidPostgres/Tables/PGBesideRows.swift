import Foundation
import LucidModel
import LucidStore

/// The SQL of what lives beside the journals, for PostgreSQL: kept answers, device states
/// and share links. Every query but a share's lookup by token is scoped by the user.
struct PGBesideRows {
    let connection: PGConnection

    // MARK: Kept answers

    func outcome(of key: String, for user: UUID, notBefore: Timestamp) throws(PGError) -> KeptOutcome? {
        guard let row = try connection.execute("""
            SELECT fingerprint, created_at, status, headers, body FROM idempotency_keys
            WHERE user_id = $1 AND key = $2 AND (version IS NOT NULL OR created_at >= $3)
            """, [user.uuidString, key, String(notBefore.millisecondsSince1970)]).rows.first
        else { return nil }
        guard let fingerprint = row[0].flatMap(Bytea.decode), let at = row[1].flatMap({ Int64($0) }),
              let status = row[2].flatMap({ Int($0) }), let headers = row[3], let body = row[4].flatMap(Bytea.decode)
        else { throw PGJournalRows.corrupt("idempotency_keys") }
        return KeptOutcome(
            fingerprint: fingerprint, answer: KeptAnswer(status: status, headerLines: headers, body: body),
            at: Timestamp(millisecondsSince1970: at))
    }

    /// Keeps `answer` for `request`: for good with the `version` it left the journal at,
    /// else (a refusal) for the key lifetime. It replaces only what an expired use of the same
    /// key left, never an answer with a version.
    func keep(_ answer: KeptAnswer, for request: KeyedRequest, of user: UUID, version: Int?) throws(PGError) {
        try connection.execute("""
            INSERT INTO idempotency_keys (user_id, key, fingerprint, created_at, status, headers, body, version)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            ON CONFLICT (user_id, key) DO UPDATE SET
                fingerprint = excluded.fingerprint, created_at = excluded.created_at, status = excluded.status,
                headers = excluded.headers, body = excluded.body, session = NULL, version = excluded.version
            WHERE idempotency_keys.version IS NULL
            """, [user.uuidString, request.key, Bytea.encode(request.fingerprint), String(request.at.millisecondsSince1970),
                  String(answer.status), answer.headerLines, Bytea.encode(answer.body), version.map(String.init)])
    }

    /// The fingerprint and session of the keyed registration or sign-in that used `key`.
    func session(of key: String, for user: UUID, notBefore: Timestamp) throws(PGError) -> (fingerprint: [UInt8], session: String?)? {
        guard let row = try connection.execute(
            "SELECT fingerprint, session FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND created_at >= $3",
            [user.uuidString, key, String(notBefore.millisecondsSince1970)]).rows.first
        else { return nil }
        guard let fingerprint = row[0].flatMap(Bytea.decode) else { throw PGJournalRows.corrupt("idempotency_keys") }
        return (fingerprint, row[1])
    }

    /// Records that `request` of `user` opened the session with token hash `session`.
    func keep(session: String, for request: KeyedRequest, of user: UUID) throws(PGError) {
        try connection.execute("""
            INSERT INTO idempotency_keys (user_id, key, fingerprint, created_at, status, headers, body, session)
            VALUES ($1, $2, $3, $4, 201, '', '\\x', $5)
            ON CONFLICT (user_id, key) DO UPDATE SET
                fingerprint = excluded.fingerprint, created_at = excluded.created_at, status = 201,
                headers = '', body = '\\x', session = excluded.session
            WHERE idempotency_keys.version IS NULL
            """, [user.uuidString, request.key, Bytea.encode(request.fingerprint), String(request.at.millisecondsSince1970), session])
    }

    func move(_ key: String, of user: UUID, to session: String) throws(PGError) {
        try connection.execute("UPDATE idempotency_keys SET session = $3 WHERE user_id = $1 AND key = $2", [user.uuidString, key, session])
    }

    func deleteKeys(keptBefore cutoff: Timestamp, limit: Int) throws(PGError) -> Int {
        try connection.execute("""
            DELETE FROM idempotency_keys WHERE (user_id, key) IN (
                SELECT user_id, key FROM idempotency_keys WHERE version IS NULL AND created_at < $1 ORDER BY created_at LIMIT $2)
            """, [String(cutoff.millisecondsSince1970), String(limit)]).affected
    }

    // MARK: Device states

    /// Saves `state`; false if it is a new device and the user has `limit` already. The
    /// caller holds the journal's row lock, so the count and the insert are one step.
    func save(_ state: DeviceState, of device: UUID, for user: UUID, at now: Timestamp, limit: Int) throws(PGError) -> Bool {
        let (json, time) = (state.storedJSON, String(now.millisecondsSince1970))
        let updated = try connection.execute(
            "UPDATE device_states SET state = $3, updated_at = $4, last_seen_at = $4 WHERE user_id = $1 AND device_id = $2",
            [user.uuidString, device.uuidString, json, time]).affected
        if updated > 0 { return true }
        guard try count("device_states", of: user) < limit else { return false }
        try connection.execute(
            "INSERT INTO device_states (user_id, device_id, state, updated_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)",
            [user.uuidString, device.uuidString, json, time])
        return true
    }

    /// The saved state of `device`, marked seen `now`; nil if there is none.
    func seen(_ device: UUID, of user: UUID, at now: Timestamp) throws(PGError) -> DeviceRecord? {
        try connection.execute("""
            UPDATE device_states SET last_seen_at = $3 WHERE user_id = $1 AND device_id = $2
            RETURNING device_id, state, updated_at, last_seen_at
            """, [user.uuidString, device.uuidString, String(now.millisecondsSince1970)]).rows.first.map(Self.device)
    }

    func devices(of user: UUID) throws(PGError) -> [DeviceRecord] {
        try connection.execute("""
            SELECT device_id, state, updated_at, last_seen_at FROM device_states WHERE user_id = $1
            ORDER BY last_seen_at DESC, device_id
            """, [user.uuidString]).rows.map(Self.device)
    }

    func forget(_ device: UUID, of user: UUID) throws(PGError) -> Bool {
        try connection.execute(
            "DELETE FROM device_states WHERE user_id = $1 AND device_id = $2", [user.uuidString, device.uuidString]).affected > 0
    }

    private static func device(_ row: [String?]) throws(PGError) -> DeviceRecord {
        guard let id = row[0].flatMap(UUID.init(uuidString:)), let state = row[1].flatMap(DeviceState.init(storedJSON:)),
              let updated = row[2].flatMap({ Int64($0) }), let seen = row[3].flatMap({ Int64($0) })
        else { throw PGJournalRows.corrupt("device_states") }
        return DeviceRecord(
            deviceID: id, state: state, updatedAt: Timestamp(millisecondsSince1970: updated), lastSeenAt: Timestamp(millisecondsSince1970: seen))
    }

    // MARK: Share links

    /// Stores `share`; false if the user has `limit` shares already. The caller holds the
    /// journal's row lock, so the count and the insert are one step.
    func save(_ share: Share, tokenHash: String, of user: UUID, limit: Int) throws(PGError) -> Bool {
        guard try count("shares", of: user) < limit else { return false }
        try connection.execute("""
            INSERT INTO shares (user_id, id, token_hash, version, dreams, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
            """, [user.uuidString, share.id.uuidString, tokenHash, String(share.version), share.storedDreams,
                  String(share.createdAt.millisecondsSince1970), String(share.expiresAt.millisecondsSince1970)])
        return true
    }

    func share(tokenHash: String, at now: Timestamp) throws(PGError) -> Share? {
        try connection.execute("""
            SELECT id, version, dreams, created_at, expires_at FROM shares WHERE token_hash = $1 AND expires_at > $2
            """, [tokenHash, String(now.millisecondsSince1970)]).rows.first.map(Self.share)
    }

    func shares(of user: UUID, at now: Timestamp) throws(PGError) -> [Share] {
        try connection.execute("""
            SELECT id, version, dreams, created_at, expires_at FROM shares WHERE user_id = $1 AND expires_at > $2
            ORDER BY created_at DESC, id
            """, [user.uuidString, String(now.millisecondsSince1970)]).rows.map(Self.share)
    }

    func revoke(_ id: UUID, of user: UUID) throws(PGError) -> Bool {
        try connection.execute("DELETE FROM shares WHERE user_id = $1 AND id = $2", [user.uuidString, id.uuidString]).affected > 0
    }

    func deleteExpiredShares(at now: Timestamp, limit: Int) throws(PGError) -> Int {
        try connection.execute("""
            DELETE FROM shares WHERE (user_id, id) IN (SELECT user_id, id FROM shares WHERE expires_at <= $1 LIMIT $2)
            """, [String(now.millisecondsSince1970), String(limit)]).affected
    }

    private static func share(_ row: [String?]) throws(PGError) -> Share {
        guard let id = row[0].flatMap(UUID.init(uuidString:)), let version = row[1].flatMap({ Int($0) }),
              let dreams = row[2].flatMap(Share.dreams(stored:)), let created = row[3].flatMap({ Int64($0) }),
              let expires = row[4].flatMap({ Int64($0) })
        else { throw PGJournalRows.corrupt("shares") }
        return Share(
            id: id, version: version, dreams: dreams, createdAt: Timestamp(millisecondsSince1970: created),
            expiresAt: Timestamp(millisecondsSince1970: expires))
    }

    private func count(_ table: String, of user: UUID) throws(PGError) -> Int {
        Int(try connection.execute("SELECT count(*) FROM \(table) WHERE user_id = $1", [user.uuidString]).rows.first?[0] ?? "0") ?? 0
    }
}

/// `bytea` values in PostgreSQL's hex text form, `\x0a1b…`.
enum Bytea {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        text.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2 - 1)
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}

extension PGBesideRows: SessionKeyRows {}
