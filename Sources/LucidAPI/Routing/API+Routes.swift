import LucidJSON
import LucidHTTP
import LucidWire

extension API {
    /// Every route of the API; `openapi.yaml` describes the same set (a test keeps them in step).
    static let routes: Router = {
        var router = Router()
        router.addOpen("GET", "/healthz") { _, _ in Reply.object { $0.key("status"); $0.string("ok") } }
        router.addOpen("GET", "/openapi.yaml") { _, call in FixedDocument.openAPI.response(to: call.request) }
        router.addOpen("GET", "/v1/catalog") { _, _ in API.catalog }

        // Their answers hold a new token.
        router.addOpen("POST", "/v1/users", .credentials(bodyLimit: API.credentialsBodyLimit), caching: .secret) {
            api, call throws(Problem) in
            try api.register(&call)
        }
        router.addOpen("POST", "/v1/sessions", .credentials(bodyLimit: API.credentialsBodyLimit), caching: .secret) {
            api, call throws(Problem) in
            try api.signIn(&call)
        }
        router.add("DELETE", "/v1/sessions/current", keepsAnswers: false) { api, call throws(Problem) in try api.signOut(call) }
        // Where and when the account is signed in: nothing a cache should keep.
        router.add("GET", "/v1/sessions", caching: .secret) { api, call throws(Problem) in try api.listSessions(call) }
        // A retried DELETE answers 404 (or 401 for the session that revoked itself), which
        // says the same; a kept answer would hold nothing more.
        router.add("DELETE", "/v1/sessions/{id}", keepsAnswers: false) { api, call throws(Problem) in try api.revokeSession(call) }
        router.add("GET", "/v1/me") { _, call in Reply.json(call.user) }
        // Its key is handled by the route itself: the general fingerprint covers the body,
        // and a fast hash of two passwords must never be stored.
        router.add("PUT", "/v1/me/password", .credentials(bodyLimit: API.passwordChangeBodyLimit), keepsAnswers: false) {
            api, call throws(Problem) in
            try api.changePassword(call)
        }
        // A retry after the deletion is answered 401 (the token is gone): a kept answer
        // would be a row of the account.
        router.add("DELETE", "/v1/me", .credentials(bodyLimit: API.passwordChangeBodyLimit), keepsAnswers: false) {
            api, call throws(Problem) in
            try api.deleteAccount(call)
        }

        router.addRead("/v1/model") { api, call, head throws(Problem) in try api.model(call, head) }
        router.addRead("/v1/dreams") { api, call, head throws(Problem) in try api.listDreams(call, head) }
        router.add("POST", "/v1/dreams") { api, call throws(Problem) in try api.addDream(call) }
        router.add("GET", "/v1/dreams/search") { api, call throws(Problem) in try api.searchDreams(call) }
        router.addRead("/v1/dreams/{id}") { api, call, head throws(Problem) in try api.dream(call, head) }
        router.add("PATCH", "/v1/dreams/{id}") { api, call throws(Problem) in try api.updateDream(call) }
        router.add("DELETE", "/v1/dreams/{id}") { api, call throws(Problem) in try api.deleteDream(call) }
        router.add("GET", "/v1/dreams/{id}/card.svg") { api, call throws(Problem) in try api.card(call, as: .svg) }
        router.add("GET", "/v1/dreams/{id}/card.txt") { api, call throws(Problem) in try api.card(call, as: .text) }
        router.add("POST", "/v1/dreams/{id}/duplicates") { api, call throws(Problem) in try api.duplicateDream(call) }
        router.add("GET", "/v1/favorite-creature") { api, call throws(Problem) in try api.favoriteCreature(call) }
        router.add("PUT", "/v1/favorite-creature") { api, call throws(Problem) in try api.setFavoriteCreature(call) }
        router.add("POST", "/v1/actions") { api, call throws(Problem) in try api.applyActions(call) }
        router.add("POST", "/v1/undo") { api, call throws(Problem) in try api.undo(call) }
        router.add("POST", "/v1/redo") { api, call throws(Problem) in try api.redo(call) }
        // The design card's words: the same operations as their /v1/ forms.
        router.addAlias("POST", "/undo", of: "/v1/undo")
        router.addAlias("POST", "/redo", of: "/v1/redo")
        router.addWaiting("/v1/changes") { api, call throws(Problem) in try api.changes(call) }
        // Each change of a batch has its key in the body; the route keeps each one's answer.
        router.add("POST", "/v1/changes", keepsAnswers: false) { api, call throws(Problem) in try api.applyChanges(call) }
        router.addWaiting("/v1/events") { api, call throws(Problem) in try api.events(call) }
        router.add("GET", "/v1/sections") { api, call throws(Problem) in try api.sections(call) }
        router.add("GET", "/v1/stats") { api, call throws(Problem) in try api.stats(call) }
        router.addWaiting("/v1/export") { api, call throws(Problem) in try api.export(call) }
        router.add("GET", "/v1/devices") { api, call throws(Problem) in try api.devices(call) }
        router.add("GET", "/v1/devices/{deviceId}/state") { api, call throws(Problem) in try api.deviceState(call) }
        // Idempotent without a key: a retried PUT sets the same state again, a retried DELETE
        // answers 404, which says the same thing.
        router.add("PUT", "/v1/devices/{deviceId}/state", keepsAnswers: false) { api, call throws(Problem) in
            try api.saveDeviceState(call)
        }
        router.add("DELETE", "/v1/devices/{deviceId}", keepsAnswers: false) { api, call throws(Problem) in try api.forgetDevice(call) }
        // A share's token is shown once, so a retried POST cannot be answered again: it makes
        // another share (revoke the spare). A retried DELETE answers 404.
        router.add("POST", "/v1/shares", keepsAnswers: false, caching: .secret) { api, call throws(Problem) in try api.createShare(call) }
        router.add("GET", "/v1/shares") { api, call throws(Problem) in try api.listShares(call) }
        router.add("DELETE", "/v1/shares/{id}", keepsAnswers: false) { api, call throws(Problem) in try api.revokeShare(call) }
        // The token in a share's link is its secret: logs show `/s/{token}`.
        router.addOpen("GET", "/s/{token}", secrets: ["token"]) { api, call throws(Problem) in try api.sharePage(&call) }
        router.addOpen("GET", "/s/{token}/cards/{card}", secrets: ["token"]) { api, call throws(Problem) in
            try api.shareCard(&call)
        }
        router.add("POST", API.importPath, .imports) { api, call throws(Problem) in try api.importDreams(call) }
        router.addRead("/v1/history") { api, call, head throws(Problem) in try api.history(call, head) }
        router.addRead("/v1/versions/{version}") { api, call, head throws(Problem) in try api.version(call, head) }
        return router
    }()
}
