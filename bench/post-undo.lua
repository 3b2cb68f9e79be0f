-- wrk: POST /v1/dreams (a fresh dream) and POST /v1/undo, alternating, as the user whose
-- token is in LUCID_BENCH_TOKEN. wrk's Lua has no per-connection state, so the alternation
-- is per thread: each thread sends as many undos as posts (±1), and the journal's seeded
-- dreams keep an undo from ever finding nothing to undo. A pair is two requests.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

local post_headers = common.headers({ ["Content-Type"] = "application/json" })
-- Made on the first call, not when the script loads: wrk knows the host (and writes Host,
-- which HTTP/1.1 requires) only once a thread runs.
local undo_request
local posting = false

function request()
   posting = not posting
   if posting then
      return wrk.format("POST", "/v1/dreams", post_headers, common.dream())
   end
   undo_request = undo_request or wrk.format("POST", "/v1/undo", common.headers(), "") -- Content-Length: 0
   return undo_request
end
