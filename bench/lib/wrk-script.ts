import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The Lua that wrk runs for every request, the same for the service and for the trivial uWS route: agents in
 * turn (request k is sent by agent k mod n of the thread's share), each walking its own list of targets, send
 * `POST /api/v1/likes/<target>?kind=<kind>` with their bearer token. wrk's Lua has no notion of connections,
 * so agents rotate per request rather than per connection; with more agents than connections no agent has
 * two swipes in flight at once, as with the Node generator.
 *
 * Arguments after `--`: the agents file (one line per agent: `<token> <target id> <target id> …`), the kind
 * (`pass`, `like`, or `mixed` for 50% like, 45% pass, 5% super_like) and the number of threads. BENCH_WRK_PORTS
 * (comma-separated) spreads the threads over several processes of the target on the same host.
 *
 * done() prints one line `WRK_RESULT <json>`: requests, duration, errors (wrk counts a status above 399 as a
 * `status` error), latency percentiles in microseconds, and wrk's own CPU seconds from /proc/self/stat
 * between the end of its start-up (every thread has read its agents) and the end of the load.
 */
const SWIPE_SCRIPT = String.raw`
local threads = {}
local started = 0

function setup(thread)
  local ports = os.getenv("BENCH_WRK_PORTS")
  if ports and ports ~= "" then
    local list = {}
    for port in ports:gmatch("[^,]+") do list[#list + 1] = port end
    thread.addr = wrk.lookup(wrk.host, list[started % #list + 1])[1]
  end
  thread:set("id", started)
  started = started + 1
  threads[#threads + 1] = thread
end

local function cpu_seconds()
  local file = io.open("/proc/self/stat", "r")
  if not file then return -1 end
  local line = file:read("*l")
  file:close()
  local fields = {}
  for field in line:match("%) (.*)$"):gmatch("%S+") do fields[#fields + 1] = field end
  return (tonumber(fields[12]) + tonumber(fields[13])) / 100
end

local agents = {}
local count, turn, mode = 0, 0, "pass"

local function read_agents(file, share, of)
  local list, index = {}, 0
  for line in io.lines(file) do
    if share < 0 or index % of == share then
      local tail, targets = nil, {}
      for word in line:gmatch("%S+") do
        if tail == nil then
          tail = " HTTP/1.1\r\nHost: " .. wrk.host .. ":" .. wrk.port .. "\r\nAuthorization: Bearer " .. word .. "\r\nContent-Length: 0\r\n\r\n"
        else
          targets[#targets + 1] = "POST /api/v1/likes/" .. word .. "?kind="
        end
      end
      if tail and #targets > 0 then list[#list + 1] = { tail = tail, targets = targets, at = 0 } end
    end
    index = index + 1
  end
  return list
end

function init(args)
  mode = args[2] or "pass"
  local of = tonumber(args[3]) or 1
  agents = read_agents(args[1], id % of, of)
  if #agents == 0 then agents = read_agents(args[1], -1, 1) end
  count = #agents
  math.randomseed(7919 + id)
  cpu_start = cpu_seconds()
end

function request()
  turn = turn % count + 1
  local agent = agents[turn]
  local at = agent.at % #agent.targets + 1
  agent.at = at
  local kind = mode == "like" and "like" or "pass"
  if mode == "mixed" then
    local roll = math.random()
    if roll < 0.5 then kind = "like" elseif roll >= 0.95 then kind = "super_like" end
  end
  return agent.targets[at] .. kind .. agent.tail
end

function done(summary, latency, requests)
  local cpu_end = cpu_seconds()
  local cpu_begin = 0
  for _, thread in ipairs(threads) do cpu_begin = math.max(cpu_begin, thread:get("cpu_start") or 0) end
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"min":%d,"mean":%.1f,"max":%d,"p50":%d,"p90":%d,"p95":%d,"p99":%d,"p999":%d},"cpu_seconds":%.2f}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.mean, latency.max, latency:percentile(50), latency:percentile(90), latency:percentile(95),
    latency:percentile(99), latency:percentile(99.9), cpu_end < 0 and -1 or cpu_end - cpu_begin))
end
`;

export type WrkKind = 'pass' | 'like' | 'mixed';

/** One agent as wrk sees it: a bearer token and the target ids it swipes, in order (then again from the start). */
export type WrkAgent = { token: string; targets: number[] };

/** A temporary directory holding the Lua script and agents files; remove() deletes it. */
export class WrkScript {
  private files = 0;

  private constructor(readonly dir: string) {}

  static create(): WrkScript {
    const script = new WrkScript(mkdtempSync(join(tmpdir(), 'agent-match-bench-wrk-')));
    writeFileSync(script.path, SWIPE_SCRIPT);
    return script;
  }

  get path(): string {
    return join(this.dir, 'swipes.lua');
  }

  /** Writes an agents file for the script's first argument; returns its path. */
  writeAgents(agents: WrkAgent[]): string {
    const file = join(this.dir, `agents-${this.files++}.txt`);
    writeFileSync(file, agents.map((agent) => `${agent.token} ${agent.targets.join(' ')}\n`).join(''));
    return file;
  }

  remove() {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
