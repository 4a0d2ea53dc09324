-- GET of a random path of the data file's `paths` on every request (bench/search.ts: searches
-- that differ, so each is worked out afresh instead of answered from the kept result).
dofile('bench/wrk/report.lua')

local paths

function init(args)
  paths = dofile(args[1]).paths
  math.randomseed(os.time() + 7919 * tid)
end

function request()
  return wrk.format('GET', paths[math.random(#paths)])
end
