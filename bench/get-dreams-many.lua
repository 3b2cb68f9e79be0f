-- wrk: GET /v1/dreams?limit=50 spread over many users: LUCID_BENCH_TOKEN holds their tokens,
-- separated by commas, and each request goes to the next user in turn (as post-dream-many.lua).
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

local tokens = {}
for token in common.token:gmatch("[^,]+") do
   table.insert(tokens, token)
end
-- Each user's request, made on its first use: wrk knows the host (and writes Host, which
-- HTTP/1.1 requires) only once a thread runs.
local requests = {}
local turn = 0

function request()
   turn = turn % #tokens + 1
   requests[turn] = requests[turn] or wrk.format("GET", "/v1/dreams?limit=50",
      { ["Authorization"] = "Bearer " .. tokens[turn], ["Accept"] = "application/json" })
   return requests[turn]
end
