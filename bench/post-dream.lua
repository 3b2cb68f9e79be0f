-- wrk: POST /v1/dreams, a fresh dream each time (the server makes the id),
-- as the user whose token is in LUCID_BENCH_TOKEN.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

local headers = common.headers({ ["Content-Type"] = "application/json" })

function request()
   return wrk.format("POST", "/v1/dreams", headers, common.dream())
end
