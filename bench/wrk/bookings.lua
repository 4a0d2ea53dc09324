-- POST /api/bookings on distinct free hourly slots: request i books court free[i % #free], slot
-- floor(i / #free) (16 hourly slots a day from 06:00, day after day from dates[1]), as customer
-- tokens[i % #tokens]. Requests are numbered across threads (thread t takes t, t + threads, …)
-- from `offset`, so no two requests of a run, nor of a warm-up and the run after it, ask for one slot.
-- Arguments: the data file, the number of wrk threads, the first index.
dofile('bench/wrk/report.lua')

local free, dates, tokens, nthreads, n
local function two(x) return string.format('%02d', x) end

function init(args)
  local data = dofile(args[1])
  free, dates, tokens = data.free, data.dates, data.tokens
  nthreads = tonumber(args[2])
  n = tonumber(args[3]) + tid
  last_index = -1
end

function request()
  local i = n
  n = n + nthreads
  last_index = i
  local court = free[i % #free + 1]
  local slot = math.floor(i / #free)
  local date = dates[math.floor(slot / 16) + 1]
  local hour = 6 + slot % 16
  local body = '{"court_id":' .. court .. ',"date":"' .. date .. '","start_time":"' .. two(hour) ..
    ':00","end_time":"' .. two(hour + 1) .. ':00"}'
  return wrk.format('POST', '/api/bookings', {
    ['content-type'] = 'application/json',
    ['authorization'] = 'Bearer ' .. tokens[i % #tokens + 1],
  }, body)
end
