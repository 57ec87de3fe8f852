-- wrk script for scripts/loadtest: requests the paths listed in $LOADTEST_PATHS (one a line) in
-- order, thread t of n taking lines t, t+n, t+2n, ... so no two threads ask for the same line;
-- prints one JSON line (prefixed LOADTEST_JSON) with the figures the driver reads.
local threads = {}
local next_id = 0

function setup(thread)
   thread:set("id", next_id)
   next_id = next_id + 1
   table.insert(threads, thread)
end

function init(args)
   paths = {}
   for line in io.lines(os.getenv("LOADTEST_PATHS")) do
      paths[#paths + 1] = line
   end
   stride = tonumber(os.getenv("LOADTEST_THREADS"))
   index = id + 1
   wrapped = 0
end

function request()
   local path = paths[index]
   index = index + stride
   if index > #paths then
      -- Cold runs size the list so this never happens; it is reported if it does.
      index = (index - 1) % #paths + 1
      wrapped = 1
   end
   return wrk.format("GET", path)
end

function done(summary, latency, requests)
   local wrapped_any = 0
   for _, thread in ipairs(threads) do
      if thread:get("wrapped") == 1 then wrapped_any = 1 end
   end
   local e = summary.errors
   io.write(string.format(
      'LOADTEST_JSON {"requests": %d, "duration_us": %d, "bad_status": %d, "socket_errors": %d, ' ..
      '"p50_us": %d, "p99_us": %d, "mean_us": %.1f, "max_us": %d, "wrapped": %d}\n',
      summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
      latency:percentile(50), latency:percentile(99), latency.mean, latency.max, wrapped_any))
end
