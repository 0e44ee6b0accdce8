/* Throughput of HiAE_encrypt / HiAE_decrypt (and the x2/x4 variants) in several shared
 * libraries that export the libhiae API, measured in one process, one run: e.g. this crate's
 * libhiae_capi.so next to libhiae's own libhiae.so.
 *
 *   cc -O2 -std=c11 -Wall -Wextra -Werror -I hiae-capi/include hiae-capi/bench/compare.c \
 *      -o compare -ldl
 *   ./compare target/release/libhiae_capi.so /path/to/libhiae.so
 *
 * Each library is loaded with dlopen (RTLD_LOCAL, so the identical symbol names do not
 * clash). For every function and size the libraries take turns, REPEATS rounds of about
 * 100 ms each; the figure is the median round, in Gbps (1e9 bit/s). Empty associated data;
 * encryption works in place; decryption decrypts a valid message out of place (so its input
 * stays valid) and verifies the tag. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPEATS 7
#define MAX_LIBS 4

typedef int (*encrypt_fn)(const uint8_t *, const uint8_t *, const uint8_t *, uint8_t *, size_t,
                          const uint8_t *, size_t, uint8_t *);
typedef int (*decrypt_fn)(const uint8_t *, const uint8_t *, uint8_t *, const uint8_t *, size_t,
                          const uint8_t *, size_t, const uint8_t *);
typedef const char *(*name_fn)(void);

static const char *const VARIANTS[] = { "HiAE", "HiAEx2", "HiAEx4" };
static const size_t      SIZES[]    = { 64, 1024, 65536 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static void *sym(void *lib, const char *variant, const char *suffix)
{
    char name[64];
    snprintf(name, sizeof name, "%s%s", variant, suffix);
    void *p = dlsym(lib, name);
    if (p == NULL) {
        fprintf(stderr, "missing %s\n", name);
        exit(1);
    }
    return p;
}

/* Seconds per call of one round of `iters` calls. Encryption re-encrypts the buffer in place;
 * decryption decrypts `ct` into `buf` (out of place, so the input stays a valid message). */
static double round_time(void *f, int decrypt, uint8_t *buf, const uint8_t *ct, size_t size,
                         const uint8_t *tag, long iters)
{
    static const uint8_t key[32] = { 0x42 }, nonce[16] = { 0x24 };
    uint8_t              t[16];
    double               start = now();
    for (long i = 0; i < iters; i++) {
        int r;
        if (decrypt) {
            r = ((decrypt_fn) f)(key, nonce, buf, ct, size, NULL, 0, tag);
        } else {
            r = ((encrypt_fn) f)(key, nonce, buf, buf, size, NULL, 0, t);
        }
        if (r != 0) {
            fprintf(stderr, "call failed\n");
            exit(1);
        }
    }
    return (now() - start) / (double) iters;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc - 1 > MAX_LIBS) {
        fprintf(stderr, "usage: %s LIB.so [LIB.so ...]\n", argv[0]);
        return 2;
    }
    int   n = argc - 1;
    void *libs[MAX_LIBS];
    for (int l = 0; l < n; l++) {
        libs[l] = dlopen(argv[l + 1], RTLD_NOW | RTLD_LOCAL);
        if (libs[l] == NULL) {
            fprintf(stderr, "%s\n", dlerror());
            return 1;
        }
    }
    printf("Gbps (median of %d rounds); in place, empty AD\n", REPEATS);
    for (size_t v = 0; v < sizeof VARIANTS / sizeof VARIANTS[0]; v++) {
        for (int l = 0; l < n; l++) {
            printf("%-7s lib %d: %s (%s)\n", VARIANTS[v], l + 1, argv[l + 1],
                   ((name_fn) sym(libs[l], VARIANTS[v], "_get_implementation_name"))());
        }
        for (int decrypt = 0; decrypt < 2; decrypt++) {
            for (size_t s = 0; s < sizeof SIZES / sizeof SIZES[0]; s++) {
                size_t   size = SIZES[s];
                uint8_t *buf = malloc(size), *ct = malloc(size), tag[16];
                double   rounds[MAX_LIBS][REPEATS];
                long     iters[MAX_LIBS];
                void    *fns[MAX_LIBS];
                for (int l = 0; l < n; l++) {
                    fns[l] = sym(libs[l], VARIANTS[v], decrypt ? "_decrypt" : "_encrypt");
                }
                for (int r = -1; r < REPEATS; r++) {
                    for (int l = 0; l < n; l++) {
                        /* A valid message of this library (the variants' definitions may
                         * differ between libraries: HiAEx4). */
                        static const uint8_t key[32] = { 0x42 }, nonce[16] = { 0x24 };
                        encrypt_fn enc = (encrypt_fn) sym(libs[l], VARIANTS[v], "_encrypt");
                        memset(ct, 0x5a, size);
                        enc(key, nonce, ct, ct, size, NULL, 0, tag);
                        if (r < 0) { /* calibration: about 100 ms per round */
                            double per = round_time(fns[l], decrypt, buf, ct, size, tag, 1000);
                            iters[l]   = (long) (0.1 / per) + 1;
                        } else {
                            rounds[l][r] =
                                round_time(fns[l], decrypt, buf, ct, size, tag, iters[l]);
                        }
                    }
                }
                printf("%-7s %-7s %6zu B:", VARIANTS[v], decrypt ? "decrypt" : "encrypt", size);
                for (int l = 0; l < n; l++) {
                    qsort(rounds[l], REPEATS, sizeof(double), cmp_double);
                    double median = rounds[l][REPEATS / 2];
                    printf("  lib %d %8.1f", l + 1, (double) size * 8 / median / 1e9);
                }
                printf("\n");
                free(buf);
                free(ct);
            }
        }
    }
    return 0;
}
