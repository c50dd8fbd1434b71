/* meta.yaml: the pandoc metadata block of one experiment report (title, date from the run's own
 * meta.utc_time so that rebuilding never changes it, verdict, backend, device) and a per-report
 * pdf-trailer-id (paper/filters/format.lua sets \pdftrailerid from it), which makes the PDF
 * byte-reproducible although pandoc compiles in a randomly named directory. */
#ifndef META_YAML_H
#define META_YAML_H

#include "textbuf.h"
#include "gates.h"
#include "run.h"

int meta_yaml(report_t *r, const gates_t *g);
/* `key: 'value'` with YAML single-quote escaping; shared with the paper mode. */
void yaml_str(rbuf_t *b, const char *key, const char *value);

#endif
