-- GET /api/venues/<slug>: a random slug of the data file's `slugs` on every request.
dofile('bench/wrk/report.lua')

local slugs

function init(args)
  slugs = dofile(args[1]).slugs
  math.randomseed(os.time() + 7919 * tid)
end

function request()
  return wrk.format('GET', '/api/venues/' .. slugs[math.random(#slugs)])
end
