-- wrk: POST /v1/dreams (a fresh dream) and POST /v1/undo, alternating, spread over many
-- users: LUCID_BENCH_TOKEN holds their tokens, separated by commas, and each pair goes to the
-- next user in turn, so every journal takes back the dream it was just given and keeps its
-- size. As in post-undo.lua, the alternation is per thread, and a pair is two requests;
-- an undo may be answered before the add it follows, so give each journal a few changes of
-- its own to take such undos.
local common = dofile(debug.getinfo(1, "S").source:match("^@(.-)[^/]*$") .. "common.lua")

local tokens = {}
for token in common.token:gmatch("[^,]+") do
   table.insert(tokens, token)
end
local turn = 0
local posting = false

function request()
   posting = not posting
   if posting then
      turn = turn % #tokens + 1
      return wrk.format("POST", "/v1/dreams", { ["Authorization"] = "Bearer " .. tokens[turn],
         ["Accept"] = "application/json", ["Content-Type"] = "application/json" }, common.dream())
   end
   -- Content-Length: 0, as post-undo.lua sends it.
   return wrk.format("POST", "/v1/undo", { ["Authorization"] = "Bearer " .. tokens[turn],
      ["Accept"] = "application/json" }, "")
end
