/* The libhiae API restated independently of the headers: every function assigned to a pointer
 * of the exact type libhiae declares (a mismatch is a compile error under -Werror, a missing
 * symbol a link error), and the sizes, alignments, member offsets and constant values the
 * headers promise, checked at compile time. */
#include <stddef.h>
#include <stdint.h>

#include "HiAE.h"
#include "HiAEx2.h"
#include "HiAEx4.h"

#define CAT_(a, b) a##b
#define CAT(a, b)  CAT_(a, b)

/* Pointers with external linkage, so none is "unused" and every symbol must resolve. */
#define API(P, STATE_T, STREAM_T)                                                              \
    int (*const CAT(abi_, CAT(P, _encrypt)))(const uint8_t *, const uint8_t *,                \
                                             const uint8_t *, uint8_t *, size_t,              \
                                             const uint8_t *, size_t, uint8_t *) =            \
        CAT(P, _encrypt);                                                                     \
    int (*const CAT(abi_, CAT(P, _decrypt)))(const uint8_t *, const uint8_t *, uint8_t *,     \
                                             const uint8_t *, size_t, const uint8_t *,        \
                                             size_t, const uint8_t *) = CAT(P, _decrypt);     \
    int (*const CAT(abi_, CAT(P, _mac)))(const uint8_t *, const uint8_t *, const uint8_t *,   \
                                         size_t, uint8_t *)         = CAT(P, _mac);           \
    int (*const CAT(abi_, CAT(P, _init_library)))(void)             = CAT(P, _init_library);  \
    const char *(*const CAT(abi_, CAT(P, _get_implementation_name)))(void) =                  \
        CAT(P, _get_implementation_name);                                                     \
    int (*const CAT(abi_, CAT(P, _force_implementation)))(const char *) =                     \
        CAT(P, _force_implementation);                                                        \
    int (*const CAT(abi_, CAT(P, _verify_tag)))(const uint8_t *, const uint8_t *) =           \
        CAT(P, _verify_tag);                                                                  \
    void (*const CAT(abi_, CAT(P, _stream_init)))(STREAM_T *, const uint8_t *,                \
                                                  const uint8_t *) = CAT(P, _stream_init);    \
    void (*const CAT(abi_, CAT(P, _stream_absorb)))(STREAM_T *, const uint8_t *, size_t) =    \
        CAT(P, _stream_absorb);                                                               \
    void (*const CAT(abi_, CAT(P, _stream_encrypt)))(STREAM_T *, uint8_t *, const uint8_t *,  \
                                                     size_t) = CAT(P, _stream_encrypt);       \
    void (*const CAT(abi_, CAT(P, _stream_decrypt)))(STREAM_T *, uint8_t *, const uint8_t *,  \
                                                     size_t) = CAT(P, _stream_decrypt);       \
    void (*const CAT(abi_, CAT(P, _stream_finalize)))(STREAM_T *, uint8_t *) =                \
        CAT(P, _stream_finalize);                                                             \
    int (*const CAT(abi_, CAT(P, _stream_verify)))(STREAM_T *, const uint8_t *) =             \
        CAT(P, _stream_verify);                                                               \
    void (*const CAT(abi_, CAT(P, _init)))(STATE_T *, const uint8_t *, const uint8_t *) =     \
        CAT(P, _init);                                                                        \
    void (*const CAT(abi_, CAT(P, _absorb)))(STATE_T *, const uint8_t *, size_t) =            \
        CAT(P, _absorb);                                                                      \
    void (*const CAT(abi_, CAT(P, _finalize)))(STATE_T *, uint64_t, uint64_t, uint8_t *) =    \
        CAT(P, _finalize);                                                                    \
    void (*const CAT(abi_, CAT(P, _enc)))(STATE_T *, uint8_t *, const uint8_t *, size_t) =    \
        CAT(P, _enc);                                                                         \
    void (*const CAT(abi_, CAT(P, _dec)))(STATE_T *, uint8_t *, const uint8_t *, size_t) =    \
        CAT(P, _dec);                                                                         \
    void (*const CAT(abi_, CAT(P, _enc_partial_noupdate)))(STATE_T *, uint8_t *,              \
                                                           const uint8_t *, size_t) =         \
        CAT(P, _enc_partial_noupdate);                                                        \
    void (*const CAT(abi_, CAT(P, _dec_partial_noupdate)))(STATE_T *, uint8_t *,              \
                                                           const uint8_t *, size_t) =         \
        CAT(P, _dec_partial_noupdate);

API(HiAE, HiAE_state_t, HiAE_stream_state_t)
API(HiAEx2, HiAEx2_state_t, HiAEx2_stream_state_t)
API(HiAEx4, HiAEx4_state_t, HiAEx4_stream_state_t)

void (*const abi_HiAEx2_finalize_mac)(HiAEx2_state_t *, uint64_t, uint8_t *) = HiAEx2_finalize_mac;
void (*const abi_HiAEx4_finalize_mac)(HiAEx4_state_t *, uint64_t, uint8_t *) = HiAEx4_finalize_mac;

/* Sizes, alignments and offsets as the headers state them (size_t of 8 or 4 bytes). */
#define W sizeof(size_t)
#define LAYOUT(STATE_T, STREAM_T, N, B, SIZE64, SIZE32)                                        \
    _Static_assert(sizeof(STATE_T) == N, #STATE_T " size");                                   \
    _Static_assert(_Alignof(STATE_T) == 1, #STATE_T " alignment");                            \
    _Static_assert(sizeof(STREAM_T) == (W == 8 ? SIZE64 : SIZE32), #STREAM_T " size");        \
    _Static_assert(_Alignof(STREAM_T) == (W == 8 ? 8 : 4), #STREAM_T " alignment");           \
    _Static_assert(offsetof(STREAM_T, state) == 0, #STREAM_T ".state");                       \
    _Static_assert(offsetof(STREAM_T, buffer) == N, #STREAM_T ".buffer");                     \
    _Static_assert(sizeof(((STREAM_T *) 0)->buffer) == B, #STREAM_T ".buffer size");          \
    _Static_assert(offsetof(STREAM_T, offset) == N + B, #STREAM_T ".offset");                 \
    _Static_assert(offsetof(STREAM_T, ad_len) == N + B + W, #STREAM_T ".ad_len");             \
    _Static_assert(offsetof(STREAM_T, msg_len) == N + B + 2 * W, #STREAM_T ".msg_len");       \
    _Static_assert(offsetof(STREAM_T, phase) == N + B + 3 * W, #STREAM_T ".phase");           \
    _Static_assert(offsetof(STREAM_T, mode) == N + B + 3 * W + 4, #STREAM_T ".mode");

LAYOUT(HiAE_state_t, HiAE_stream_state_t, 256, 16, 304, 292)
LAYOUT(HiAEx2_state_t, HiAEx2_stream_state_t, 512, 16, 560, 548)
LAYOUT(HiAEx4_state_t, HiAEx4_stream_state_t, 1024, 64, 1120, 1108)

#define ENUMS(PH_T, MODE_T, PFX)                                                               \
    _Static_assert(sizeof(PH_T) == 4 && sizeof(MODE_T) == 4, #PH_T " size");                  \
    _Static_assert(CAT(PFX, _STREAM_INIT) == 0 && CAT(PFX, _STREAM_AD) == 1 &&                \
                       CAT(PFX, _STREAM_MSG) == 2 && CAT(PFX, _STREAM_FINAL) == 3,            \
                   #PFX " phases");                                                           \
    _Static_assert(CAT(PFX, _STREAM_MODE_NONE) == 0 && CAT(PFX, _STREAM_MODE_ENCRYPT) == 1 && \
                       CAT(PFX, _STREAM_MODE_DECRYPT) == 2,                                   \
                   #PFX " modes");

ENUMS(HiAE_stream_phase_t, HiAE_stream_mode_t, HIAE)
ENUMS(HiAEx2_stream_phase_t, HiAEx2_stream_mode_t, HiAEx2)
ENUMS(HiAEx4_stream_phase_t, HiAEx4_stream_mode_t, HiAEx4)

_Static_assert(HIAE_KEYBYTES == 32 && HIAE_NONCEBYTES == 16 && HIAE_MACBYTES == 16, "HiAE sizes");
_Static_assert(HIAEX2_KEYBYTES == 32 && HIAEX2_NONCEBYTES == 16 && HIAEX2_MACBYTES == 16,
               "HiAEx2 sizes");
_Static_assert(HIAEX4_KEYBYTES == 32 && HIAEX4_NONCEBYTES == 16 && HIAEX4_MACBYTES == 16,
               "HiAEx4 sizes");
