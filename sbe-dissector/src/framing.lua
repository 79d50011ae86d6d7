-- The framing: packets (UDP datagrams) and streams (TCP, reassembled),
-- frames in them, messages in the frames.

-- The schema a message at o is of: the one whose id its header names.
local function schema_at(tvb, o, lim)
  for _, s in ipairs(SCHEMAS) do
    if s.is(tvb, o, lim) then return s end
  end
  return nil
end

-- The frame at o with have bytes left, framed as FR (the framing, or a
-- HINTS entry): "ok", its length and its padded length; "short" and the
-- bytes its header needs; or "bad" and why.
local function frame_at_of(FR, tvb, o, have)
  if have < FR.header then return "short", FR.header end
  local at = o + FR.len_off
  local n
  if FR.len_w == 2 then
    if FR.len_le then n = u16le(at) else n = u16be(at) end
  else
    if FR.len_le then n = u32le(at) else n = u32be(at) end
  end
  local flen = n
  if FR.counts_message then flen = FR.prefix + n end
  if flen < FR.min then
    return "bad", "frame length " .. n .. " is shorter than the frame's own " .. FR.min .. " bytes"
  end
  local padded = flen
  if FR.align > 1 then padded = flen + (FR.align - flen % FR.align) % FR.align end
  return "ok", flen, padded
end

local function frame_at(tvb, o, have) return frame_at_of(FR, tvb, o, have) end

-- With raw, a message of no known schema at the start of the bytes: the
-- first preset framing (HINTS) whose frame there holds a message of a
-- known schema and template, said after the expert item's text.
local function framing_hint(tvb, o, lim)
  if o ~= 0 then return "" end
  for _, h in ipairs(HINTS) do
    local at = h.packet
    local st, flen = "short", 0
    if lim - at > 0 then st, flen = frame_at_of(h, tvb, at, lim - at) end
    local enc_ok = true
    if st == "ok" and h.enc_off and h.enc_ok then
      local et
      if h.enc_le then et = u16le(at + h.enc_off) else et = u16be(at + h.enc_off) end
      enc_ok = h.enc_ok[et] ~= nil
    end
    if st == "ok" and enc_ok then
      local m, e = at + h.prefix, math.min(at + flen, lim)
      local s = schema_at(tvb, m, e)
      if s and s.known(tvb, m, e) then
        return "; these look like " .. h.words .. ": generate the dissector with --framing " .. h.name
      end
    end
  end
  return ""
end

-- One message at o, ending at most at lim: its end, or nil when it could
-- not be read (an expert item says why). A Lua error in the dissector
-- itself becomes an expert item too.
local function one_message(tvb, tree, o, lim, names)
  local s = schema_at(tvb, o, lim)
  if not s then
    if lim - o < MIN_HEADER then
      return bad(tree, E.truncated, "message header: " .. (lim - o) .. " bytes left")
    end
    return bad(tree, E.unknown_schema, "no schema of this id: " .. SCHEMA_ID_TEXT(tvb, o) .. framing_hint(tvb, o, lim))
  end
  local ok, e, name = pcall(s.dissect, tvb, tree, o, lim)
  if not ok then return bad(tree, E.bug, "dissector error: " .. tostring(e)) end
  if name then names[#names + 1] = name end
  return e
end

-- The frame's own fields under root; false when its encoding type is not
-- one expected.
local function frame_fields(tvb, root, o)
  if W[FR.f_len] then
    local r = RANGE(tvb, o + FR.len_off, FR.len_w)
    if FR.len_le then ADD_LE(root, F[FR.f_len], r) else ADD(root, F[FR.f_len], r) end
  end
  if not FR.enc_off then return true end
  local at = o + FR.enc_off
  local et
  if FR.enc_le then et = u16le(at) else et = u16be(at) end
  if W[FR.f_enc] then
    if FR.enc_le then ADD_LE(root, F[FR.f_enc], RANGE(tvb, at, 2)) else ADD(root, F[FR.f_enc], RANGE(tvb, at, 2)) end
  end
  if FR.enc_ok and not FR.enc_ok[et] then
    root:add_proto_expert_info(E.encoding, "encoding type " .. hex(et) .. " is not one expected")
    return false
  end
  return true
end

local function show_info(pinfo, names, prefix)
  pinfo.cols.protocol:set(PROTO_COLUMN)
  local text = table.concat(names, ", ")
  if prefix then text = prefix .. ": " .. text end
  if text ~= "" then pinfo.cols.info:set(text) end
end

-- A datagram: the packet header (packet framings), then frames (or raw
-- messages) to its end.
local function dissect_datagram(tvb, pinfo, tree)
  local len = tvb:len()
  local root = tree:add(proto, tvb())
  local names = {}
  local o = 0
  local prefix = nil
  if FR.packet then
    if len < FR.packet then
      root:add_proto_expert_info(E.truncated, "packet header: " .. FR.packet .. " bytes needed, " .. len .. " left")
      show_info(pinfo, names)
      return len
    end
    prefix = packet_header(tvb, root)
    o = FR.packet
  end
  while o < len do
    if FR.framed then
      local st, flen, padded = frame_at(tvb, o, len - o)
      if st == "short" then
        root:add_proto_expert_info(E.truncated, "frame header: " .. flen .. " bytes needed, " .. (len - o) .. " left")
        break
      elseif st == "bad" then
        root:add_proto_expert_info(E.framing, flen)
        break
      elseif o + flen > len then
        root:add_proto_expert_info(E.truncated, "frame of " .. flen .. " bytes, " .. (len - o) .. " left")
        break
      end
      if frame_fields(tvb, root, o) then
        one_message(tvb, root, o + FR.prefix, o + flen, names)
      end
      o = o + padded
    else
      local e = one_message(tvb, root, o, len, names)
      if not e then break end
      o = e
    end
  end
  show_info(pinfo, names, prefix)
  return len
end

-- The length of the next frame or raw message of a stream at o: the
-- bytes it takes, or nil and the bytes more it needs (or
-- DESEGMENT_ONE_MORE_SEGMENT), or false when it cannot be read.
local function stream_unit(tvb, o, len)
  if FR.framed then
    local st, flen, padded = frame_at(tvb, o, len - o)
    if st == "short" then return nil, DESEGMENT_ONE_MORE_SEGMENT end
    if st == "bad" then return false, flen end
    if o + padded > len then return nil, o + padded - len end
    return padded, flen
  end
  local m = measure_tree()
  local wanted = W
  W = NONE
  local e = one_message(tvb, m, o, len, {})
  W = wanted
  if e then return e - o, e - o end
  if m.short then return nil, DESEGMENT_ONE_MORE_SEGMENT end
  return false, "message cannot be read"
end

-- A TCP segment (or reassembled run of them): every whole frame in it;
-- a frame cut at the end waits for more segments.
local function dissect_stream(tvb, pinfo, tree)
  local len = tvb:len()
  local names = {}
  local root = nil
  local o = 0
  while o < len do
    local size, more = stream_unit(tvb, o, len)
    if size == nil then
      pinfo.desegment_offset = o
      pinfo.desegment_len = more
      break
    end
    root = root or tree:add(proto, tvb(o))
    if size == false then
      if FR.framed then
        root:add_proto_expert_info(E.framing, more)
      else
        one_message(tvb, root, o, len, names)
      end
      break
    end
    if FR.framed then
      if frame_fields(tvb, root, o) then
        one_message(tvb, root, o + FR.prefix, o + more, names)
      end
    else
      one_message(tvb, root, o, o + size, names)
    end
    o = o + size
  end
  show_info(pinfo, names)
  return len
end

function proto.dissector(tvb, pinfo, tree)
  begin(tvb, tree)
  -- 2: PT_TCP in Wireshark's port types.
  if pinfo.port_type == 2 then return dissect_stream(tvb, pinfo, tree) end
  return dissect_datagram(tvb, pinfo, tree)
end

-- Heuristics: a known schema id and template id where the first message
-- must start.
local function looks_like(tvb)
  local o = FR.packet or 0
  if FR.framed then o = o + FR.prefix end
  local len = tvb:len()
  if len < o then return false end
  local s = schema_at(tvb, o, len)
  return s ~= nil and s.known(tvb, o, len)
end

local function heuristic(tvb, pinfo, tree)
  begin(tvb, tree)
  if not looks_like(tvb) then return false end
  -- The rest of the conversation (TCP segments mid-frame) comes here too.
  pinfo.conversation = proto
  proto.dissector(tvb, pinfo, tree)
  return true
end

proto:register_heuristic("udp", heuristic)
if FR.stream then proto:register_heuristic("tcp", heuristic) end

-- Ports: preferences, and Decode As.
proto.prefs.udp_ports = Pref.range("UDP ports", UDP_PORTS, "UDP ports of the feed", 65535)
proto.prefs.tcp_ports = Pref.range("TCP ports", TCP_PORTS, "TCP ports of the sessions", 65535)

local function register_ports()
  local udp = DissectorTable.get("udp.port")
  local tcp = DissectorTable.get("tcp.port")
  udp:remove_all(proto)
  tcp:remove_all(proto)
  if tostring(proto.prefs.udp_ports) ~= "" then udp:add(proto.prefs.udp_ports, proto) end
  if FR.stream and tostring(proto.prefs.tcp_ports) ~= "" then tcp:add(proto.prefs.tcp_ports, proto) end
end

function proto.prefs_changed() register_ports() end
register_ports()
DissectorTable.get("udp.port"):add_for_decode_as(proto)
if FR.stream then DissectorTable.get("tcp.port"):add_for_decode_as(proto) end
