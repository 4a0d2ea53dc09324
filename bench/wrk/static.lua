-- One fixed request (the URL given to wrk): the bare server and the venue list.
dofile('bench/wrk/report.lua')
