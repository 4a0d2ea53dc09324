-- GET /api/courts/<id>/availability?date=<day>: a random court of the data file's `courts` on a
-- random day of its `dates`, on every request. Argument: the data file (bench/run.ts writes it).
dofile('bench/wrk/report.lua')

local courts, dates

function init(args)
  local data = dofile(args[1])
  courts, dates = data.courts, data.dates
  math.randomseed(os.time() + 7919 * tid)
end

function request()
  local court = courts[math.random(#courts)]
  local date = dates[math.random(#dates)]
  return wrk.format('GET', '/api/courts/' .. court .. '/availability?date=' .. date)
end
