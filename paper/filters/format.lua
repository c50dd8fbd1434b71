-- format.lua: output-specific touches, applied last.
--   HTML comments of the templates (notes for maintainers) are dropped from every output;
--   GitHub Markdown has no title block, so title, subtitle and date open the document there;
--   .banner divs (the INCOMPLETE, EMULATED, GPU notices at the top of a report) become a framed box in
--   LaTeX, a bordered block in HTML and a block quote in GitHub Markdown, so the notice stands
--   out in all three formats;
--   for LaTeX, \pdftrailerid{<metadata pdf-trailer-id>} at the start of the body: without it the PDF
--   /ID depends on pandoc's random temporary directory (a -H header would override the
--   metadata's header-includes, so it cannot go there; pdfTeX reads it only when the file ends).
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
