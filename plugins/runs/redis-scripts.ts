/**
 * @module The Lua scripts of the Redis run store, each one atomic. A run is a hash
 * `<ns>:{<id>}` (`doc`: the record's JSON, `v`: its version, `seq`: the last event number,
 * `cancel`: set once cancelled) and a list `<ns>:{<id>}:events`; the braces keep both in one
 * cluster slot. Leases are a sorted set scored by expiry on the Redis clock, so host clocks may differ.
 */

/** Replaces `doc` if the version is still ARGV[1]: 1 done, 0 changed meanwhile, -1 no such run. */
export const COMPARE_AND_SET = `
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'v', tostring(tonumber(v) + 1))
if ARGV[4] == '1' then redis.call('HSET', KEYS[1], 'cancel', '1') end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

/**
 * Appends one event (ARGV[1]: its JSON without the leading '{' and without seq), keeps the newest
 * ARGV[2], extends the run's life to ARGV[3] ms and publishes it on ARGV[4]. Returns the event's seq, 0 for no such run.
 */
export const APPEND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
local event = '{"seq":' .. seq .. ',' .. ARGV[1]
redis.call('RPUSH', KEYS[2], event)
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PUBLISH', ARGV[4], '{"type":"event","event":' .. event .. '}')
return seq`;

/** The logged events with seq > ARGV[1] (the list holds the last LLEN of seq events). */
export const EVENTS_AFTER = `
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '0')
local len = redis.call('LLEN', KEYS[2])
local first = seq - len + 1
local start = math.max(0, tonumber(ARGV[1]) - first + 1)
if start >= len then return {} end
return redis.call('LRANGE', KEYS[2], start, -1)`;

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** Sets the leases ARGV[2..] to expire ARGV[1] ms from now. */
export const RENEW_LEASES = `${NOW}
local expiry = string.format('%.0f', now + tonumber(ARGV[1]))
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], expiry, ARGV[i]) end
return #ARGV - 1`;

/** Takes up to 50 expired leases out of the set: whoever removes one fails its run. */
export const CLAIM_EXPIRED = `${NOW}
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', now), 'LIMIT', 0, 50)
for _, id in ipairs(expired) do redis.call('ZREM', KEYS[1], id) end
return expired`;
