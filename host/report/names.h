/* Names that arrive with data (a campaign tarball's members, its id, its device, a run's
 * directory) and become paths, make arguments or shell words: one grammar for all of them, so that
 * nothing a tarball names can reach a parent directory, hide as a dot file, collide with a
 * reserved folder or carry a character a shell or make would interpret. */
#ifndef NAMES_H
#define NAMES_H

#include <stdbool.h>
#include <stddef.h>

#define NAME_MAX_LEN 128  /* one path component */
#define NAME_PATH_MAX 400 /* a member's path inside the tarball */
#define NAME_DEPTH_MAX 8  /* components of such a path */

/* One path component: [A-Za-z0-9_][A-Za-z0-9._+,=@-]*, at most NAME_MAX_LEN bytes (no dot file,
 * no "..", no space, quote, '$', '`', '\\', '/', control or non-ASCII byte). */
bool name_component_ok(const char *s, size_t len);
/* A relative path of such components joined by single '/', at most NAME_DEPTH_MAX deep and
 * NAME_PATH_MAX long. On failure why says which component and why. */
bool name_path_ok(const char *path, char *why, size_t whylen);
/* A campaign or run id: [A-Za-z0-9][A-Za-z0-9._-]*, at most NAME_MAX_LEN, and never containing
 * ".tmp." (the mark of an unfinished write). */
bool name_id_ok(const char *id);
/* The directory a device's campaigns go to under data/gpu/: the device name lower-cased, every run
 * of other characters one '-', trimmed; "emulated-" first for a campaign without a GPU. A device
 * name is printable ASCII without the characters a shell, make or Markdown would interpret, at
 * most 128 bytes; the slug must be non-empty and not reserved (name_reserved), and a GPU's may not
 * begin with "emulated". 0, or -1 with why set. */
int name_device_slug(const char *device, bool emulated, char *slug, size_t n, char *why, size_t whylen);
/* Folders of data/gpu/ that are not devices ("sweeps"), and dot names (unfinished ingests). */
bool name_reserved(const char *slug);

#endif
