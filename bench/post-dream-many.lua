-- wrk: POST /v1/dreams spread over many users: LUCID_BENCH_TOKEN holds their tokens,
-- separated by commas, and each request goes to the next user in turn. Where a journal's
-- writes take turns, this is what a service of many users sees.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

local headers = {}
for token in common.token:gmatch("[^,]+") do
   table.insert(headers, { ["Authorization"] = "Bearer " .. token, ["Accept"] = "application/json",
      ["Content-Type"] = "application/json" })
end
local turn = 0

function request()
   turn = turn % #headers + 1
   return wrk.format("POST", "/v1/dreams", headers[turn], common.dream())
end
