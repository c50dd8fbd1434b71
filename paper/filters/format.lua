-- format.lua: output-specific touches, applied last.
--   HTML comments of the templates (notes for maintainers) are dropped from every output;
--   GitHub Markdown has no title block, so title, subtitle and date open the document there;
--   .banner divs (the INCOMPLETE, EMULATED, GPU notices at the top of a report) become a framed box in
--   LaTeX, a bordered block in HTML and a block quote in GitHub Markdown, so the notice stands
--   out in all three formats;
--   the notices that open a document stay first: in HTML above the title and the table of contents
--   (include-before), in LaTeX before the printed table of contents, which follows them;
--   GitHub Markdown gets the abstract after its title block;
--   for LaTeX, \pdftrailerid{<metadata pdf-trailer-id>} at the start of the body: without it the PDF
--   /ID depends on pandoc's random temporary directory (a -H header would override the
--   metadata's header-includes, so it cannot go there; pdfTeX reads it only when the file ends).
--   in LaTeX, long identifiers in table cells (paths, commits, run ids, hashes: words without a
--   space) get break points after / _ : . - = , and every 16 characters of a longer unbroken
--   run, so that a cell wraps inside its column instead of running over the next one or off the
--   page (tests/report/layout-check.sh); the text itself is unchanged (copy-paste still works);
--   HTML does the same with CSS (overflow-wrap in style.css); in prose, a path of 40 characters
--   or more gets them too.
--   Formulas are pandoc TeX math ($...$) in the sources, so accented symbols (\hat p) never reach
--   pdflatex as combining characters; other non-ASCII characters of prose and generated tables
--   are declared in paper/latex/preamble.tex.

local latex = FORMAT:match('latex') ~= nil
local html = FORMAT:match('html') ~= nil
local gfm = FORMAT:match('gfm') ~= nil or FORMAT:match('markdown') ~= nil

function RawBlock(b)
  if b.format == 'html' and b.text:match('^%s*<!%-%-') then return {} end
end

function Div(d)
  if not d.classes:includes('banner') then return end
  -- red: an emulated run (no GPU timings) or an incomplete run (tables/incomplete.md)
  local emulated = d.classes:includes('emulated') or d.classes:includes('incomplete')
  if latex then
    local inl = pandoc.utils.blocks_to_inlines(d.content)
    local color = emulated and 'red' or 'black'
    local open = '\\par\\noindent\\fcolorbox{' .. color .. '}{white}{\\parbox{\\dimexpr\\linewidth-2\\fboxsep-2\\fboxrule\\relax}{'
    inl:insert(1, pandoc.RawInline('latex', open))
    inl:insert(pandoc.RawInline('latex', '}}\\par'))
    return pandoc.Para(inl)
  elseif html then
    d.attributes.style = emulated and 'border:3px solid #c00;background:#fff3f3;padding:0.5em 1em;margin:1em 0'
                                  or 'border:2px solid #555;padding:0.5em 1em;margin:1em 0'
    return d
  end
  return pandoc.BlockQuote(d.content)
end

-- Break points for LaTeX: the pieces of s, each ending after a break character or 16 characters
-- into a run without one. Words shorter than BREAK_MIN stay whole.
local BREAK_MIN = 14
local function pieces(s)
  local out, cur, run = {}, '', 0
  for _, c in utf8.codes(s) do
    local ch = utf8.char(c)
    cur = cur .. ch
    run = run + 1
    if ch:match('[/_:%.%-=,]') or run >= 16 then
      table.insert(out, cur)
      cur, run = '', 0
    end
  end
  if cur ~= '' then table.insert(out, cur) end
  return out
end

local BREAK = pandoc.RawInline('latex', '\\allowbreak{}')
local function breakable(el)
  if utf8.len(el.text) < BREAK_MIN then return nil end
  local ps = pieces(el.text)
  if #ps < 2 then return nil end
  local out = {}
  for i, p in ipairs(ps) do
    if i > 1 then table.insert(out, BREAK) end
    table.insert(out, el.t == 'Code' and pandoc.Code(p) or pandoc.Str(p))
  end
  return out
end

function Table(t)
  if not latex then return end
  return pandoc.walk_block(t, { Str = breakable, Code = breakable })
end

-- In prose, only a word of at least PROSE_BREAK_MIN characters with a / in it (a path: a report's
-- "(experiments/<name>/hypothesis.md);" ran past the margin at one line position) gets the same
-- break points; shorter words, which the paragraph can always move to the next line, stay whole.
local PROSE_BREAK_MIN = 40
local function long_path(el)
  if utf8.len(el.text) < PROSE_BREAK_MIN or not el.text:find('/', 1, true) then return nil end
  return breakable(el)
end
local function prose(b)
  if not latex then return end
  return pandoc.walk_block(b, { Str = long_path, Code = long_path })
end
Para, Plain = prose, prose

-- The notices that open a document (INCOMPLETE, EMULATED, GPU banners: blocks before the first
-- header), taken out of doc.blocks.
local function leading_banners(doc)
  local out = {}
  while #doc.blocks > 0 and doc.blocks[1].t ~= 'Header' do
    table.insert(out, doc.blocks[1])
    doc.blocks:remove(1)
  end
  return out
end

function Pandoc(doc)
  local id = doc.meta['pdf-trailer-id']
  if latex then
    -- the printed table of contents after the notices, so that EMULATED stays on page 1
    local lead = leading_banners(doc)
    table.insert(lead, pandoc.RawBlock('latex', '\\tableofcontents\n\\clearpage'))
    for i = #lead, 1, -1 do doc.blocks:insert(1, lead[i]) end
    if id then
      doc.blocks:insert(1, pandoc.RawBlock('latex', '\\pdftrailerid{' .. pandoc.utils.stringify(id) .. '}'))
    end
  elseif html then
    -- the notices on the first screen, above the title and the table of contents
    local lead = leading_banners(doc)
    if #lead > 0 then
      doc.meta['include-before'] = pandoc.MetaBlocks({ pandoc.RawBlock('html', pandoc.write(pandoc.Pandoc(lead), 'html5')) })
    end
  end
  if gfm and doc.meta.title then
    local head = { pandoc.Header(1, pandoc.utils.stringify(doc.meta.title), pandoc.Attr('title')) }
    for _, k in ipairs({ 'subtitle', 'date' }) do
      if doc.meta[k] then table.insert(head, pandoc.Para({ pandoc.Emph(pandoc.utils.stringify(doc.meta[k])) })) end
    end
    -- the abstract, which GitHub Markdown has no metadata block for
    if doc.meta.abstract then
      local abs = doc.meta.abstract
      local blocks = abs.t == 'MetaBlocks' and abs or { pandoc.Para(pandoc.utils.stringify(abs)) }
      table.insert(head, pandoc.Para({ pandoc.Strong('Abstract.') }))
      for _, b in ipairs(blocks) do table.insert(head, b) end
    end
    for i = #head, 1, -1 do doc.blocks:insert(1, head[i]) end
  end
  return doc
end
