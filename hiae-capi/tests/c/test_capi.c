/* Tests of the C API through the public headers only: every vector of hiae.json, hiaex2.json
 * and the zig-hiae columns of hiaex4.json through the one-shot, block and streaming functions,
 * on every implementation this CPU can run; streaming in many chunkings against one-shot;
 * tampered input rejected with a zeroed output; misuse refused. Usage: test_capi DATA_DIR
 * (the directory with the JSON vector files). Environment: EXPECT_BACKEND=name makes the test
 * check that automatic selection picks that implementation; CAPI_TEST_QUICK=1 runs fewer
 * chunkings and splits per vector (for emulators; every vector still goes through every API
 * and implementation). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "HiAE.h"
#include "HiAEx2.h"
#include "HiAEx4.h"
#include "json.h"

static unsigned long g_checks, g_failures;
static char          g_ctx[256];
static int           g_quick;

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        g_checks++;                                                                            \
        if (!(cond)) {                                                                         \
            g_failures++;                                                                      \
            if (g_failures <= 60) {                                                            \
                fprintf(stderr, "FAIL [%s] line %d: ", g_ctx, __LINE__);                       \
                fprintf(stderr, __VA_ARGS__);                                                  \
                fputc('\n', stderr);                                                           \
            }                                                                                  \
        }                                                                                      \
    } while (0)

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        acc |= p[i];
    }
    return acc == 0;
}

static uint64_t g_rng = 0x9e3779b97f4a7c15u;

static uint64_t rng(void)
{
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return g_rng * 0x2545f4914f6cdd1du;
}

static void fill_random(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        p[i] = (uint8_t) rng();
    }
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* NULL for an empty byte string: zero-length buffers may be NULL. */
static const uint8_t *ptr_or_null(const bytes *b)
{
    return b->len ? b->p : NULL;
}

/* The size of the next piece of a stream: `step` bytes, or, for step 0, a random size
 * between 0 and 2 * wide + 2 (zero-length pieces included). */
static size_t next_piece(size_t step, size_t left, size_t wide)
{
    size_t n = step ? step : (size_t) (rng() % (2 * wide + 3));
    return n < left ? n : left;
}

static jval *load(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    jval *root = json_parse_file(path);
    if (root == NULL) {
        fprintf(stderr, "cannot load %s\n", path);
        exit(2);
    }
    return root;
}

/* Every implementation name this library has; those the CPU can run are tested. */
static const char *const IMPL_NAMES[] = { "VAES-AVX512", "VAES-AVX2", "AES-NI",
                                          "ARM-AES-SHA3", "ARM-AES", "Portable" };
/* libhiae's names and the implementation each must select. */
static const char *const LIBHIAE_ALIASES[][2] = {
    { "VAES+AVX512", "VAES-AVX512" }, { "AESNI-AVX", "AES-NI" }, { "ARM SHA3", "ARM-AES-SHA3" },
    { "ARM NEON", "ARM-AES" },        { "ARM", "ARM-AES" },      { "ARM-Crypto", "ARM-AES" },
    { "Software", "Portable" },       { "vaes_avx2", "VAES-AVX2" }
};

#define CAT_(a, b) a##b
#define CAT(a, b)  CAT_(a, b)
#define FN(x)      CAT(P, x)
#define STR_(x)    #x
#define STR(x)     STR_(x)

#define P         HiAE
#define PFX       HIAE
#define LANES     1
#define STATE_T   HiAE_state_t
#define STREAM_T  HiAE_stream_state_t
#define VEC_FILE  "hiae.json"
#include "variant_tests.h"
#undef P
#undef PFX
#undef LANES
#undef STATE_T
#undef STREAM_T
#undef VEC_FILE

#define P         HiAEx2
#define PFX       HiAEx2
#define LANES     2
#define STATE_T   HiAEx2_state_t
#define STREAM_T  HiAEx2_stream_state_t
#define VEC_FILE  "hiaex2.json"
#include "variant_tests.h"
#undef P
#undef PFX
#undef LANES
#undef STATE_T
#undef STREAM_T
#undef VEC_FILE

#define P         HiAEx4
#define PFX       HiAEx4
#define LANES     4
#define STATE_T   HiAEx4_state_t
#define STREAM_T  HiAEx4_stream_state_t
#define VEC_FILE  "hiaex4.json"
#include "variant_tests.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress lines as they come, also into a pipe */
    const char *quick = getenv("CAPI_TEST_QUICK");
    g_quick           = quick != NULL && strcmp(quick, "1") == 0;
    const char *expect = getenv("EXPECT_BACKEND");
    if (expect != NULL && *expect != '\0') {
        snprintf(g_ctx, sizeof g_ctx, "automatic selection");
        CHECK(strcmp(HiAE_get_implementation_name(), expect) == 0, "HiAE picks %s, expected %s",
              HiAE_get_implementation_name(), expect);
        CHECK(strcmp(HiAEx2_get_implementation_name(), expect) == 0, "HiAEx2 picks %s",
              HiAEx2_get_implementation_name());
        CHECK(strcmp(HiAEx4_get_implementation_name(), expect) == 0, "HiAEx4 picks %s",
              HiAEx4_get_implementation_name());
    }
    HiAE_run(argv[1]);
    HiAEx2_run(argv[1]);
    HiAEx4_run(argv[1]);
    printf("%lu checks, %lu failures\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}
