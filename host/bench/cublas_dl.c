/* cuBLAS and cuBLASLt through dlopen (cublas_dl.h). */
#include "cublas_dl.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef CUBLAS_DL_HAVE_HEADERS

/* <exe>/../lib/<name> when the executable sits in a bin/ folder (the bundle's layout). */
static void *open_bundled(const char *name) {
    char exe[PATH_MAX], path[PATH_MAX + 64];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return NULL;
    *slash = '\0';
    snprintf(path, sizeof path, "%s/../lib/%s", exe, name);
    return access(path, R_OK) == 0 ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
}

/* Opens the first of names that loads; records which in file. */
static void *open_lib(const char *const names[2], char *file, size_t filelen, char *why, size_t whylen) {
    for (int i = 0; i < 2; i++) {
        void *h = open_bundled(names[i]);
        if (!h) h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (h) {
            snprintf(file, filelen, "%s", names[i]);
            return h;
        }
    }
    snprintf(why, whylen,
             "%s not found (also tried %s; searched <bundle>/lib, LD_LIBRARY_PATH and the system)", names[0],
             names[1]);
    return NULL;
}

static int load(cublas_dl_t *t, char *why, size_t whylen) {
    static const char *const blas[2] = {"libcublas.so.13", "libcublas.so.12"};
    static const char *const lt[2] = {"libcublasLt.so.13", "libcublasLt.so.12"};
    /* cuBLASLt first: libcublas needs it (DT_NEEDED), and once loaded from <bundle>/lib it satisfies
     * that by its soname wherever libcublas itself comes from. */
    char why_lt[256];
    void *hl = open_lib(lt, t->cublaslt_file, sizeof t->cublaslt_file, why_lt, sizeof why_lt);
    void *hb = open_lib(blas, t->cublas_file, sizeof t->cublas_file, why, whylen);
    if (!hb) return -1; /* the reason names libcublas, the library a user looks for */
    if (!hl) {
        snprintf(why, whylen, "%s", why_lt);
        return -1;
    }
    /* dlsym returns void *; POSIX guarantees it converts to a function pointer (memcpy keeps
     * -Wpedantic quiet about the cast). */
#define CUBLAS_DL_RESOLVE(lib, file, name)                                                                   \
    do {                                                                                                     \
        void *sym = dlsym(lib, #name);                                                                       \
        if (!sym) {                                                                                          \
            snprintf(why, whylen, "%s: symbol %s not found", file, #name);                                   \
            return -1;                                                                                       \
        }                                                                                                    \
        memcpy(&t->name, &sym, sizeof sym);                                                                  \
    } while (0);
#define FROM_BLAS(name) CUBLAS_DL_RESOLVE(hb, t->cublas_file, name)
#define FROM_LT(name) CUBLAS_DL_RESOLVE(hl, t->cublaslt_file, name)
    CUBLAS_FNS(FROM_BLAS)
    CUBLASLT_FNS(FROM_LT)
#undef FROM_BLAS
#undef FROM_LT
#undef CUBLAS_DL_RESOLVE
    int v[3] = {0, 0, 0};
    const libraryPropertyType props[3] = {MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL};
    for (int i = 0; i < 3; i++) (void)t->cublasGetProperty(props[i], &v[i]);
    snprintf(t->cublas_version, sizeof t->cublas_version, "%d.%d.%d", v[0], v[1], v[2]);
    const size_t lv = t->cublasLtGetVersion(); /* major*10000 + minor*100 + patch */
    snprintf(t->cublaslt_version, sizeof t->cublaslt_version, "%zu.%zu.%zu", lv / 10000, lv / 100 % 100,
             lv % 100);
    return 0;
}

const cublas_dl_t *cublas_dl_get(char *why, size_t whylen) {
    static cublas_dl_t table;
    static int state; /* 0 not tried, 1 loaded, -1 failed */
    static char reason[512];
    if (state == 0) state = load(&table, reason, sizeof reason) == 0 ? 1 : -1;
    if (state > 0) return &table;
    snprintf(why, whylen, "%s", reason);
    return NULL;
}

#else

const cublas_dl_t *cublas_dl_get(char *why, size_t whylen) {
    snprintf(why, whylen, "built without the cuBLAS headers (cublasLt.h not found at build time)");
    return NULL;
}

#endif
