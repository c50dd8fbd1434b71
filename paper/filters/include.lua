-- include.lua: assembles a report from Markdown fragments.
--
--   ::: {.include src="{run}/tables/gates.md" section="rules-out" prefix="s2-" shift="1" figdir="..."}
--   :::
--
-- is replaced by the parsed Markdown of src (only the section whose header has that id, when
-- section is given). Placeholders {name} in src, in image sources and in nested includes resolve
-- from this include's other attributes, then the enclosing includes', then the document metadata
-- (pandoc -M run=... -M figdir=...). prefix renames the fig:/tbl:/sec: identifiers and references
-- of the included text, so that several runs' fragments can share one document (the paper);
-- shift moves the included headers that many levels down.
-- The div's own content (a header, prose), if any, comes before the included text. With
-- optional="yes", a missing file drops the whole div, content included: a section of the paper
-- for an experiment that the build does not list yet (stage6-fp8-mma until it is merged) appears
-- once its fragment is written. Without it, a missing file or an unresolved placeholder stops
-- pandoc with a message naming it.

local meta_env = {}
local RESERVED = { src = true, section = true, prefix = true, shift = true, optional = true }
local LABEL = { 'fig:', 'tbl:', 'sec:' }

local function subst(s, env, what)
  s = s:gsub('%%7B', '{'):gsub('%%7D', '}')
  return (s:gsub('{([%w_-]+)}', function(k)
    if env[k] == nil then error('include: unresolved placeholder {' .. k .. '} in ' .. what) end
    return env[k]
  end))
end

local function is_label(id)
  for _, p in ipairs(LABEL) do if id:sub(1, #p) == p then return p end end
end

local function renamed(id, prefix)
  local p = is_label(id)
  return p and (p .. prefix .. id:sub(#p + 1)) or id
end

-- Renames identifiers, references and "{#tbl:...}" caption markers.
local function apply_prefix(blocks, prefix)
  return pandoc.walk_block(pandoc.Div(blocks), {
    Header = function(h) h.identifier = renamed(h.identifier, prefix); return h end,
    Image = function(i) i.identifier = renamed(i.identifier, prefix); return i end,
    Div = function(d) d.identifier = renamed(d.identifier, prefix); return d end,
    Str = function(s)
      local m = s.text:match('^{#(.-)}$')
      if m and is_label(m) then return pandoc.Str('{#' .. renamed(m, prefix) .. '}') end
    end,
    Cite = function(c)
      for _, ci in ipairs(c.citations) do ci.id = renamed(ci.id, prefix) end
      return c
    end,
  }).content
end

local function select_section(blocks, id, path)
  local out, level = {}, nil
  for _, b in ipairs(blocks) do
    if level then
      if b.t == 'Header' and b.level <= level then break end
      table.insert(out, b)
    elseif b.t == 'Header' and b.identifier == id then
      level = b.level
    end
  end
  if not level then error('include: no section #' .. id .. ' in ' .. path) end
  return out
end

local expand

local function include(div, env)
  local local_env = setmetatable({}, { __index = env })
  for k, v in pairs(div.attributes) do
    if not RESERVED[k] then local_env[k] = subst(v, env, 'attribute ' .. k) end
  end
  local src = div.attributes.src
  if not src then error('include: a div of class include needs src=') end
  local path = subst(src, local_env, src)
  local f = io.open(path, 'r')
  if not f and div.attributes.optional == 'yes' then return {} end
  if not f then error('include: cannot read ' .. path) end
  local text = f:read('a')
  f:close()
  local blocks = pandoc.read(text, 'markdown').blocks
  if div.attributes.section then blocks = select_section(blocks, div.attributes.section, path) end
  if div.attributes.prefix then blocks = apply_prefix(blocks, div.attributes.prefix) end
  local shift = tonumber(div.attributes.shift or '0')
  if shift ~= 0 then
    blocks = pandoc.walk_block(pandoc.Div(blocks), {
      Header = function(h) h.level = h.level + shift; return h end,
    }).content
  end
  local own = {}
  for _, b in ipairs(div.content) do table.insert(own, b) end
  for _, b in ipairs(blocks) do table.insert(own, b) end
  return expand(own, local_env)
end

-- Expands nested includes and resolves image placeholders in a block list.
expand = function(blocks, env)
  local out = {}
  for _, b in ipairs(blocks) do
    if b.t == 'Div' and b.classes:includes('include') then
      for _, x in ipairs(include(b, env)) do table.insert(out, x) end
    else
      b = pandoc.walk_block(b, {
        Image = function(img) img.src = subst(img.src, env, 'image ' .. img.src); return img end,
        Div = function(d)
          if d.classes:includes('include') then return pandoc.Div(include(d, env)) end
        end,
      })
      table.insert(out, b)
    end
  end
  return out
end

function Pandoc(doc)
  for k, v in pairs(doc.meta) do
    if type(v) ~= 'table' or v.t == 'MetaInlines' or v.t == 'MetaString' then
      meta_env[k] = pandoc.utils.stringify(v)
    end
  end
  doc.blocks = expand(doc.blocks, meta_env)
  return doc
end
