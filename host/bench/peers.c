/* The peer registry and the by-name lookups (peers.h); the peers themselves live in peer_*.c. */
#include "peers.h"

#include <stdio.h>
#include <string.h>

#define PEER_ROW(name, summary)                                                                              \
    {                                                                                                        \
        name, "peer-" name, summary, {                                                                       \
            "peer-" name, "", 0, summary, NULL, 0, {                                                         \
                { 0 }                                                                                        \
            }                                                                                                \
        }                                                                                                    \
    }

const peer_def_t peers_registry[] = {
    PEER_ROW("cublas-unfused", "unfused cuBLAS baseline: fp16 batched GEMM Q'K'^T, row softmax kernel, "
                               "batched GEMM P V' (inputs dequantised to fp16 on the host)"),
};
const size_t peers_count = sizeof peers_registry / sizeof peers_registry[0];

const peer_def_t *peers_find(const char *name_or_id) {
    for (size_t i = 0; name_or_id && i < peers_count; i++)
        if (strcmp(peers_registry[i].name, name_or_id) == 0 || strcmp(peers_registry[i].id, name_or_id) == 0)
            return &peers_registry[i];
    return NULL;
}

void peers_names(char *buf, size_t len) {
    buf[0] = '\0';
    for (size_t i = 0; i < peers_count; i++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", peers_registry[i].name);
}
