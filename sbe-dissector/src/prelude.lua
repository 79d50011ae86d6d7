-- Helpers every generated dissector shares. Lua 5.2 and 5.4 alike: no
-- integer division or bit operators (Wireshark's `bit` library instead),
-- 64-bit values as UInt64/Int64, never as Lua numbers.
local bit = bit
local sbyte = string.byte

-- The bytes of the tvb being dissected, set as each call starts: the
-- header, dimension and length members and the 8- to 32-bit values are
-- read from it, without a TvbRange (a userdata to allocate and finalize)
-- per read.
local RAW = ""
local function u8(o) return (sbyte(RAW, o + 1)) end
local function u16le(o)
  local a, b = sbyte(RAW, o + 1, o + 2)
  return a + b * 256
end
local function u16be(o)
  local a, b = sbyte(RAW, o + 1, o + 2)
  return a * 256 + b
end
local function u32le(o)
  local a, b, c, d = sbyte(RAW, o + 1, o + 4)
  return a + b * 256 + c * 65536 + d * 16777216
end
local function u32be(o)
  local a, b, c, d = sbyte(RAW, o + 1, o + 4)
  return a * 16777216 + b * 65536 + c * 256 + d
end
-- A 64-bit header, count or length member (a UInt64) as a Lua number
-- held as an integer: Lua 5.4's UInt64:tonumber() gives a float, which
-- prints as "2000.0" in item and expert texts.
local tointeger = math.tointeger or function(x) return x end
local function u64num(v)
  local x = v:tonumber()
  return tointeger(x) or x
end
-- v (unsigned, below 2 * half) as two's complement.
local function signed(v, half)
  if v >= half then return v - 2 * half end
  return v
end

-- Wireshark's methods, looked up once: a call through a userdata's
-- __index costs about as much as the call itself. Only real TreeItems
-- and Tvbs are passed to them (the measuring walk adds no items).
local function method(class, name)
  local f = class and class[name]
  if type(f) == "function" then return f end
  return function(self, ...) return self[name](self, ...) end
end
local ADD, ADD_LE = method(TreeItem, "add"), method(TreeItem, "add_le")
local SET_TEXT, APPEND_TEXT = method(TreeItem, "set_text"), method(TreeItem, "append_text")
local SET_LEN, SET_GENERATED = method(TreeItem, "set_len"), method(TreeItem, "set_generated")
local RANGE = method(Tvb, "range")

-- Which fields to add: every one to a visible tree (a packet shown or
-- printed), else only those a filter, column or tap references, asked of
-- Wireshark once a call. An item not added leaves its children to its
-- parent, as Wireshark's own faked items do.
local CUR = nil
local WANT_MT = {
  __index = function(w, k)
    local v = CUR:referenced(F[k])
    w[k] = v
    return v
  end,
}
local W = ALL
-- No field: the walk that measures a message before it is shown.
local NONE = {}

-- The call on tvb under tree starts: its bytes, the fields it adds.
local function begin(tvb, tree)
  RAW = tvb:raw()
  CUR = tree
  if tree.visible then W = ALL else W = setmetatable({}, WANT_MT) end
end

local function isnan(x) return x ~= x end

-- An item of field f over range r, read in the schema's byte order; shown
-- as null when isnull.
local function opt(t, f, r, le, isnull, name)
  local it
  if le then it = ADD_LE(t, f, r) else it = ADD(t, f, r) end
  if isnull then SET_TEXT(it, name .. ": null") end
  return it
end

-- A char value or array: the bytes up to the first NUL, decoded as enc;
-- null when optional and the first byte is NUL (or nullbyte).
local function text(t, f, tvb, o, n, enc, optional, nullbyte, name)
  local r = RANGE(tvb, o, n)
  local raw = string.sub(RAW, o + 1, o + n)
  local cut = string.find(raw, "\0", 1, true)
  local len = n
  if cut then len = cut - 1 end
  local s = ""
  if len > 0 then s = RANGE(tvb, o, len):string(enc) end
  local it = ADD(t, f, r, s)
  if optional and (len == 0 or (n == 1 and string.byte(raw, 1) == nullbyte)) then
    SET_TEXT(it, name .. ": null")
  end
  return it
end

-- mantissa x 10^exponent, exactly, as text.
-- The 16 bytes at o of the prelude's RAW (a little-endian two's
-- complement 128-bit integer: Binance's mantissa128) as decimal text, by
-- long division of its magnitude's bytes (each step's numbers stay far
-- below 2^53, so Lua numbers hold them exactly).
local function i128_text(o)
  local b = { sbyte(RAW, o + 1, o + 16) }
  if #b < 16 then return "0" end
  local neg = b[16] >= 128
  if neg then
    local carry = 1
    for i = 1, 16 do
      local v = 255 - b[i] + carry
      if v >= 256 then
        b[i], carry = v - 256, 1
      else
        b[i], carry = v, 0
      end
    end
  end
  local digits = {}
  repeat
    local rem, zero = 0, true
    for i = 16, 1, -1 do
      local cur = rem * 256 + b[i]
      local q = math.floor(cur / 10)
      rem = cur - q * 10
      b[i] = q
      if q ~= 0 then zero = false end
    end
    digits[#digits + 1] = string.format("%d", rem)
  until zero
  return (neg and "-" or "") .. string.reverse(table.concat(digits))
end

-- The exponents of the blocks being read (keyed by block and field), for
-- the decimals whose exponent is another field (Binance's mbx:exponent).
local EXP = {}

local function dec_text(m, e)
  local s = tostring(m)
  local neg = string.sub(s, 1, 1) == "-"
  if neg then s = string.sub(s, 2) end
  if e >= 0 then
    if s ~= "0" then s = s .. string.rep("0", e) end
  else
    local places = -e
    if #s <= places then s = string.rep("0", places - #s + 1) .. s end
    s = string.sub(s, 1, #s - places) .. "." .. string.sub(s, #s - places + 1)
  end
  if neg then s = "-" .. s end
  return s
end

-- count units of per nanoseconds each (a number, UInt64 or Int64) as an
-- NSTime since the epoch (or midnight).
local function nstime(c, per)
  local per_sec = 1000000000 / per
  if type(c) == "number" then c = Int64(c) end
  local s = c / per_sec
  local r = (c % per_sec):tonumber()
  if r < 0 then
    s = s - 1
    r = r + per_sec
  end
  return NSTime(s:tonumber(), r * per)
end

-- Nanoseconds per unit of a wire time unit code (nil for an unknown code).
local UNIT_NANOS = { [0] = 1000000000, [3] = 1000000, [6] = 1000, [9] = 1 }

-- days since the epoch as a date (UTC).
local function date_text(days)
  return os.date("!%Y-%m-%d", days * 86400)
end

local function hex(v)
  return string.format("0x%x", v)
end

-- An integer as text: Lua 5.4 writes a float-held integer as "2.0".
local function int(v)
  if type(v) == "number" then return string.format("%d", v) end
  return tostring(v)
end

local function num(v)
  if type(v) == "number" then return v end
  return v:tonumber()
end

-- A time item: the instant (or time of day) with the raw count beside;
-- per is the unit's nanoseconds (nil for a unit code not known).
local function time_item(t, f, r, v, per, isnull, name)
  local it
  if isnull then
    it = ADD(t, f, r, NSTime(0, 0))
    SET_TEXT(it, name .. ": null")
  elseif per then
    it = ADD(t, f, r, nstime(v, per))
    APPEND_TEXT(it, " (" .. int(v) .. ")")
  else
    it = ADD(t, f, r, NSTime(0, 0))
    SET_TEXT(it, name .. ": " .. int(v) .. " (unknown time unit)")
  end
  return it
end

-- A date item: days since the epoch as YYYY-MM-DD, the raw count beside.
local function date_item(t, f, r, v, isnull, name)
  local it
  if isnull then
    it = ADD(t, f, r, "")
    SET_TEXT(it, name .. ": null")
  else
    it = ADD(t, f, r, date_text(num(v)))
    APPEND_TEXT(it, " (" .. int(v) .. ")")
  end
  return it
end

-- A MonthYear as YYYY-MM, then -DD (or wN) when the composite has it.
local function month_year(y, m, d, w)
  local s = string.format("%04d-%02d", num(y), num(m))
  if d then
    s = s .. string.format("-%02d", num(d))
  elseif w then
    s = s .. string.format("w%d", num(w))
  end
  return s
end

-- An expert item on t; nil, so that a reader can return it.
local function bad(t, e, msg)
  t:add_proto_expert_info(e, msg)
  return nil
end


-- A tree that keeps nothing: a message is walked with it to measure its
-- length (raw framing over TCP) before it is shown. `short` says whether
-- the walk ran out of bytes (more may come) rather than met bad input.
local Measure = {}
Measure.__index = Measure
local function measure_tree() return setmetatable({ short = false }, Measure) end
local function self_of(self) return self end
Measure.add = self_of
Measure.add_le = self_of
Measure.set_text = self_of
Measure.append_text = self_of
Measure.set_len = self_of
Measure.set_generated = self_of
function Measure:add_proto_expert_info(e)
  if e == E.truncated or e == E.count then self.short = true end
  return self
end
