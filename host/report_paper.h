/* sdpa-report paper: the whole-study fragments (see report_paper.c). */
#ifndef REPORT_PAPER_H
#define REPORT_PAPER_H

int report_paper_main(int argc, char **argv);

#endif
