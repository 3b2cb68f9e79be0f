-- Shared by the wrk scripts in this folder (loaded with dofile; not a workload itself).
-- Gives the bearer token, a fresh dream body, and the counting of non-2xx responses:
-- done() prints "bench: non-2xx N (status×count …)", which script/bench reads.

local common = {}

common.token = os.getenv("LUCID_BENCH_TOKEN")
if not common.token or common.token == "" then
   error("LUCID_BENCH_TOKEN is not set")
end

-- Headers of each kind of request (wrk.format replaces wrk.headers with these).
function common.headers(extra)
   local headers = { ["Authorization"] = "Bearer " .. common.token, ["Accept"] = "application/json" }
   for name, value in pairs(extra or {}) do
      headers[name] = value
   end
   return headers
end

local creatures = {
   '{"kind":"unicorn","color":"pink"}', '{"kind":"unicorn","color":"white"}',
   '{"kind":"unicorn","color":"yellow"}', '{"kind":"crusty"}', '{"kind":"shark"}', '{"kind":"dragon"}',
}
local effects = { '[]', '["snow","magic"]', '["rain"]', '["fireflies","laserFocus"]', '["fireBreathing"]' }
local places = { "the old harbour", "a library with no roof", "my grandmother's kitchen", "a glass train" }
local counter = 0

-- A NewDream with a ~300-byte description, different on every call of every thread.
function common.dream()
   counter = counter + 1
   local description = string.format(
      "Dream %d-%d. I walked through %s at dusk when the floor turned to water and I could "
         .. "breathe under it. A friend from school waved from a lighthouse; its light swept over "
         .. "fish singing a song from the radio. I tried to shout back, but each word came out "
         .. "as a paper boat.",
      thread_id or 0, counter, places[counter % #places + 1])
   return string.format(
      '{"description":"%s","creature":%s,"effects":%s,"numberOfCreatures":%d}',
      description, creatures[counter % #creatures + 1], effects[counter % #effects + 1], counter % 9 + 1)
end

-- wrk's hooks for counting non-2xx responses per thread and summing them at the end.
local threads = {}

function setup(thread)
   table.insert(threads, thread)
   thread:set("thread_id", #threads)
end

function init(args)
   statuses = {}
end

function response(status, headers, body)
   if status < 200 or status > 299 then
      statuses[status] = (statuses[status] or 0) + 1
   end
end

function done(summary, latency, requests)
   local total, counts = 0, {}
   for _, thread in ipairs(threads) do
      for status, count in pairs(thread:get("statuses") or {}) do
         counts[status] = (counts[status] or 0) + count
         total = total + count
      end
   end
   local parts = {}
   for status, count in pairs(counts) do
      table.insert(parts, status .. "×" .. count)
   end
   table.sort(parts)
   io.write(string.format("bench: non-2xx %d (%s)\n", total, table.concat(parts, " ")))
end

return common
