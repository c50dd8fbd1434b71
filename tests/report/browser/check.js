// Injected first into the <head> of a temporary copy of a report or paper page by
// tests/report/browser.sh. It records script errors, failed resources (captured error events),
// unhandled rejections and console.error/warn from the start, then, once the page has loaded,
// writes what it found as JSON into <pre id="browser-check">, which chromium --dump-dom returns.
(function () {
  var errors = [];
  window.addEventListener('error', function (e) {
    var t = e.target;
    if (t && t !== window && (t.src || t.href))
      errors.push('resource not loaded: ' + t.tagName + ' ' + String(t.src || t.href).slice(0, 80));
    else
      errors.push('script error: ' + e.message);
  }, true);
  window.addEventListener('unhandledrejection', function (e) { errors.push('unhandled rejection: ' + e.reason); });
  ['error', 'warn'].forEach(function (k) {
    var f = console[k];
    console[k] = function () {
      errors.push('console.' + k + ': ' + Array.prototype.join.call(arguments, ' '));
      f.apply(console, arguments);
    };
  });
  window.addEventListener('load', function () {
    var imgs = Array.prototype.slice.call(document.images);
    var maths = Array.prototype.slice.call(document.getElementsByTagName('math'));
    var out = {
      errors: errors,
      images: imgs.length,
      images_not_loaded: imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); })
                             .map(function (i) { return (i.getAttribute('src') || '').slice(0, 60); }),
      tables: document.getElementsByTagName('table').length,
      math: maths.length,
      // laid out as MathML, a superscript sits above its base; as plain inline text it would not
      msup: document.getElementsByTagName('msup').length,
      msup_raised: Array.prototype.filter.call(document.getElementsByTagName('msup'), function (m) {
        return m.children.length === 2 &&
               m.children[1].getBoundingClientRect().top < m.children[0].getBoundingClientRect().top;
      }).length,
      // MathML laid out by the browser has a box; one it does not understand may collapse
      math_without_box: maths.filter(function (m) {
        var r = m.getBoundingClientRect();
        return !(r.width > 0 && r.height > 0);
      }).length,
      // the first banner (EMULATED, INCOMPLETE, GPU) and the table of contents: where they start (px)
      banner_top: (function () {
        var b = document.querySelector('div.banner');
        return b ? b.getBoundingClientRect().top + window.scrollY : null;
      })(),
      banner_text: (function () {
        var b = document.querySelector('div.banner');
        return b ? b.textContent.replace(/\s+/g, ' ').trim().slice(0, 60) : '';
      })(),
      toc_top: (function () {
        var t = document.getElementById('TOC');
        return t ? t.getBoundingClientRect().top + window.scrollY : null;
      })(),
      viewport_height: window.innerHeight
    };
    var pre = document.createElement('pre');
    pre.id = 'browser-check';
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  });
})();
