-- wrk: GET /v1/dreams?limit=50 as the user whose token is in LUCID_BENCH_TOKEN.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

local request_text = wrk.format("GET", "/v1/dreams?limit=50", common.headers())

function request()
   return request_text
end
