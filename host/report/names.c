/* See names.h. */
#include "names.h"

#include <stdio.h>
#include <string.h>

static bool alnum(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool name_component_ok(const char *s, size_t len) {
    if (len == 0 || len > NAME_MAX_LEN || !(alnum(s[0]) || s[0] == '_')) return false;
    for (size_t i = 1; i < len; i++)
        if (!alnum(s[i]) && !strchr("._+,=@-", s[i])) return false;
    return true;
}

bool name_path_ok(const char *path, char *why, size_t whylen) {
    size_t len = strlen(path);
    if (len == 0 || len > NAME_PATH_MAX) {
        snprintf(why, whylen, "'%.80s': a path of 1 to %d bytes is expected", path, NAME_PATH_MAX);
        return false;
    }
    int depth = 0;
    for (const char *s = path;; depth++) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (!name_component_ok(s, n)) {
            snprintf(why, whylen,
                     "'%.200s': component '%.*s' is not a plain name ([A-Za-z0-9_][A-Za-z0-9._+,=@-]*, "
                     "at most %d bytes; no '..', dot file, space, quote, '$', '`' or '\\')",
                     path, (int)(n > 80 ? 80 : n), s, NAME_MAX_LEN);
            return false;
        }
        if (depth + 1 > NAME_DEPTH_MAX) {
            snprintf(why, whylen, "'%.200s': deeper than %d directories", path, NAME_DEPTH_MAX);
            return false;
        }
        if (!e) break;
        s = e + 1;
    }
    return true;
}

bool name_id_ok(const char *id) {
    size_t n = strlen(id);
    if (n == 0 || n > NAME_MAX_LEN || !alnum(id[0]) || strstr(id, ".tmp.")) return false;
    for (size_t i = 1; i < n; i++)
        if (!alnum(id[i]) && !strchr("._-", id[i])) return false;
    return true;
}

bool name_reserved(const char *slug) { return slug[0] == '.' || strcmp(slug, "sweeps") == 0; }

int name_device_slug(const char *device, bool emulated, char *slug, size_t n, char *why, size_t whylen) {
    size_t len = strlen(device), k = 0;
    if (len == 0 || len > 128) {
        snprintf(why, whylen, "device name of %zu bytes (1 to 128 expected)", len);
        return -1;
    }
    for (size_t i = 0; i < len; i++)
        if (!alnum(device[i]) && !strchr(" ._()+,/-", device[i])) {
            snprintf(why, whylen,
                     "device name '%.128s': character 0x%02x is not accepted (letters, digits, space and "
                     "._()+,/- only)",
                     device, (unsigned char)device[i]);
            return -1;
        }
    if (emulated) k = (size_t)snprintf(slug, n, "emulated-");
    bool dash = true; /* no leading '-' */
    for (size_t i = 0; i < len && k + 1 < n; i++) {
        char c = device[i];
        if (alnum(c)) {
            slug[k++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            dash = false;
        } else if (!dash) {
            slug[k++] = '-';
            dash = true;
        }
    }
    while (k > 0 && slug[k - 1] == '-') k--;
    slug[k] = '\0';
    const char *own = emulated ? slug + strlen("emulated-") : slug;
    if (!*own) {
        snprintf(why, whylen, "device name '%s' has no letter or digit: no directory can be named after it",
                 device);
        return -1;
    }
    if (name_reserved(slug)) {
        snprintf(why, whylen, "device name '%s' gives the reserved directory name '%s'", device, slug);
        return -1;
    }
    if (!emulated && strncmp(slug, "emulated", 8) == 0) {
        snprintf(why, whylen, "device name '%s' of a GPU campaign would pass for an emulated one ('%s')",
                 device, slug);
        return -1;
    }
    return 0;
}
