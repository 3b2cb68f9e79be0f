-- wrk: GET /v1/dreams?limit=50 as the user whose token is in LUCID_BENCH_TOKEN.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

-- Made on the first call, not when the script loads: wrk knows the host (and writes Host,
-- which HTTP/1.1 requires) only once a thread runs.
local request_text

function request()
   request_text = request_text or wrk.format("GET", "/v1/dreams?limit=50", common.headers())
   return request_text
end
