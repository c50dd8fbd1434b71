-- numbering.lua: numbers figures, tables and sections, and resolves @fig:x, @tbl:x, @sec:x
-- (pandoc-crossref is not packaged in Debian 12). Runs before --citeproc, which would otherwise
-- treat those references as missing citations.
--   figures: a paragraph holding one captioned image; its caption gets "Figure N: "
--   tables:  a caption ending in {#tbl:id} (the marker is removed); it gets "Table N: "
--   sections: numbered as --number-sections does (unnumbered ones excluded); in outputs that
--             cannot number sections (GitHub Markdown) the number is written into the header
-- A reference becomes the bare number ("Table @tbl:gates" reads "Table 3"); an unknown
-- reference stops pandoc. Headers without a sec: id are reachable as @sec:<id>. LaTeX's own
-- caption labels are switched off in paper/latex/preamble.tex.

local labels = {}
local nfig, ntbl = 0, 0
local sec = {}
local html = FORMAT:match('html') ~= nil

local function number_header(h)
  if h.classes:includes('unnumbered') then return end
  sec[h.level] = (sec[h.level] or 0) + 1
  for l = h.level + 1, 9 do sec[l] = nil end
  local parts = {}
  for l = 1, h.level do table.insert(parts, tostring(sec[l] or 0)) end
  -- outputs without --number-sections support (GitHub Markdown) get the number in the text
  if not html and not FORMAT:match('latex') then
    h.content:insert(1, pandoc.Str(table.concat(parts, '.')))
    h.content:insert(2, pandoc.Space())
  end
  if h.identifier == '' then return h end
  local n = { n = table.concat(parts, '.'), target = h.identifier }
  labels[h.identifier] = n
  -- headers of included files without a sec: id (paper/methods.md) are reachable as @sec:<id>
  if not h.identifier:match('^sec:') then labels['sec:' .. h.identifier] = n end
  return h
end

local function number_figure(p)
  if #p.content ~= 1 or p.content[1].t ~= 'Image' or #p.content[1].caption == 0 then return end
  local img = p.content[1]
  nfig = nfig + 1
  if img.identifier ~= '' then labels[img.identifier] = { n = tostring(nfig), target = img.identifier } end
  img.caption:insert(1, pandoc.Str('Figure ' .. nfig .. ':'))
  img.caption:insert(2, pandoc.Space())
  return p
end

local function number_table(t)
  local cap = t.caption.long
  if #cap == 0 then return end
  local inl = cap[#cap].content
  local id
  if #inl > 0 and inl[#inl].t == 'Str' then
    id = inl[#inl].text:match('^{#(tbl:.-)}$')
    if id then
      inl:remove(#inl)
      if #inl > 0 and inl[#inl].t == 'Space' then inl:remove(#inl) end
    end
  end
  ntbl = ntbl + 1
  cap[1].content:insert(1, pandoc.Str('Table ' .. ntbl .. ':'))
  cap[1].content:insert(2, pandoc.Space())
  if id then
    labels[id] = { n = tostring(ntbl), target = id }
    if html then return pandoc.Div({ t }, pandoc.Attr(id)) end
  end
  return t
end

local function resolve(c)
  local id = c.citations[1].id
  if not (id:match('^fig:') or id:match('^tbl:') or id:match('^sec:')) then return end
  local l = labels[id]
  if not l then error('numbering: unknown reference @' .. id) end
  if not html then return pandoc.Str(l.n) end
  return pandoc.Link(l.n, '#' .. l.target)
end

return {
  { Header = number_header, Para = number_figure, Table = number_table },
  { Cite = resolve },
}
