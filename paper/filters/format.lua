-- format.lua: output-specific touches, applied last.
--   HTML comments of the templates (notes for maintainers) are dropped from every output;
--   GitHub Markdown has no title block, so title, subtitle and date open the document there;
--   .banner divs (the INCOMPLETE, EMULATED, GPU notices at the top of a report) become a framed box in
--   LaTeX, a bordered block in HTML and a block quote in GitHub Markdown, so the notice stands
--   out in all three formats;
--   for LaTeX, \pdftrailerid{<metadata pdf-trailer-id>} at the start of the body: without it the PDF
--   /ID depends on pandoc's random temporary directory (a -H header would override the
--   metadata's header-includes, so it cannot go there; pdfTeX reads it only when the file ends);
--   for LaTeX, letters with combining accents (p̂, s̃, ε̄ in paper/methods.md), which pdflatex
--   cannot typeset, become math accents. Other non-ASCII characters are declared in
--   paper/latex/preamble.tex.

local latex = FORMAT:match('latex') ~= nil
local html = FORMAT:match('html') ~= nil
local gfm = FORMAT:match('gfm') ~= nil or FORMAT:match('markdown') ~= nil

function RawBlock(b)
  if b.format == 'html' and b.text:match('^%s*<!%-%-') then return {} end
end
local ACCENT = { [0x0302] = '\\hat', [0x0303] = '\\tilde', [0x0304] = '\\bar' }

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

function Str(s)
  if not latex then return end
  local cps = {}
  for _, cp in utf8.codes(s.text) do table.insert(cps, cp) end
  local has = false
  for _, cp in ipairs(cps) do if ACCENT[cp] then has = true end end
  if not has then return end
  local out, i = {}, 1
  while i <= #cps do
    local cp, nxt = cps[i], cps[i + 1]
    if nxt and ACCENT[nxt] then
      table.insert(out, pandoc.RawInline('latex', '$' .. ACCENT[nxt] .. '{' .. utf8.char(cp) .. '}$'))
      i = i + 2
    else
      table.insert(out, pandoc.Str(utf8.char(cp)))
      i = i + 1
    end
  end
  return out
end

function Pandoc(doc)
  local id = doc.meta['pdf-trailer-id']
  if latex and id then
    doc.blocks:insert(1, pandoc.RawBlock('latex', '\\pdftrailerid{' .. pandoc.utils.stringify(id) .. '}'))
  end
  if gfm and doc.meta.title then
    local head = { pandoc.Header(1, pandoc.utils.stringify(doc.meta.title), pandoc.Attr('title')) }
    for _, k in ipairs({ 'subtitle', 'date' }) do
      if doc.meta[k] then table.insert(head, pandoc.Para({ pandoc.Emph(pandoc.utils.stringify(doc.meta[k])) })) end
    end
    for i = #head, 1, -1 do doc.blocks:insert(1, head[i]) end
  end
  return doc
end
