-- Shared by every bench script (dofile'd): numbers each wrk thread and, when the run ends, prints
-- one machine-readable line that bench/run.ts parses:
--   WRKJSON {"requests":…,"duration_us":…,"p50_us":…,"p99_us":…,"non2xx":…,"errors":…,"last_index":…}
-- Latencies are wrk's own histogram (microseconds); non2xx is wrk's count of answers with status > 399.
-- last_index is the highest request index a script handed out (scripts with a counter), so the
-- measured run after a warm-up can start past the warm-up's bookings.

local threads = {}
local next_id = 0

function setup(thread)
  thread:set('tid', next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function done(summary, latency, _requests)
  local e = summary.errors
  local last = -1
  for _, t in ipairs(threads) do
    local i = t:get('last_index')
    if i ~= nil and i > last then last = i end
  end
  io.write(string.format(
    'WRKJSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"non2xx":%d,"errors":%d,"last_index":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status,
    e.connect + e.read + e.write + e.timeout, last))
end
