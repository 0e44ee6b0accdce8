/*
 * HiAE.h - HiAE authenticated encryption (draft-pham-cfrg-hiae, current definition).
 *
 * The C interface of libhiae, implemented by the aeadfast-hiae-capi library (libhiae_capi.a /
 * libhiae_capi.so). A program written against libhiae's HiAE.h compiles unchanged with this
 * header; link it with -lhiae_capi instead of -lhiae.
 *
 * Conventions for every function below:
 *   - Keys are HIAE_KEYBYTES (32) bytes, nonces HIAE_NONCEBYTES (16), tags HIAE_MACBYTES (16).
 *     A (key, nonce) pair must never encrypt two different messages.
 *   - Functions returning int return 0 on success and -1 on failure.
 *   - A pointer may be NULL only when its length is 0. A NULL pointer with a non-zero length
 *     (a NULL key, nonce or tag counts as one) is an error: int functions return -1, void
 *     functions write nothing but zeros to their outputs (see each function).
 *   - Input and output buffers of one call are either the same pointer (in place) or do not
 *     overlap; outputs never overlap the key, nonce, associated data or tag.
 *   - Messages and associated data are limited to 2^61 - 1 bytes each.
 *   - A state object may be used by one thread at a time; different objects are independent.
 *     All functions may be called from any number of threads.
 *   - No error unwinds into the caller; no function aborts the process (the one exception
 *     is noted at HiAE_init).
 */
#ifndef HIAE_H
#define HIAE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Key length in bytes. */
#define HIAE_KEYBYTES 32
/** Nonce length in bytes. */
#define HIAE_NONCEBYTES 16
/** Authentication tag length in bytes. */
#define HIAE_MACBYTES 16

/**
 * The raw HiAE state (sixteen 16-byte blocks), for the block API below.
 * sizeof 256, alignment 1: it may be placed at any address.
 */
typedef struct {
    uint8_t opaque[256];
} HiAE_state_t;

/* ------------------------------------------------------------------------------------------ */
/* One-shot AEAD and MAC                                                                      */
/* ------------------------------------------------------------------------------------------ */

/**
 * Encrypts msg_len bytes of msg into ct and writes the 16-byte tag.
 * ct may equal msg (in place). ad (ad_len bytes) is authenticated, not encrypted.
 * Returns 0, or -1 on invalid arguments or oversized input (then ct and tag are zero-filled
 * where they can be written).
 */
int HiAE_encrypt(const uint8_t *key, const uint8_t *nonce, const uint8_t *msg, uint8_t *ct,
                 size_t msg_len, const uint8_t *ad, size_t ad_len, uint8_t *tag);

/**
 * Decrypts ct_len bytes of ct into msg and verifies the tag in constant time.
 * msg may equal ct (in place). Returns 0 if the tag is valid; otherwise -1, and msg is
 * zero-filled: no unverified plaintext is ever left in msg.
 */
int HiAE_decrypt(const uint8_t *key, const uint8_t *nonce, uint8_t *msg, const uint8_t *ct,
                 size_t ct_len, const uint8_t *ad, size_t ad_len, const uint8_t *tag);

/**
 * HiAE's MAC mode (the draft's Mac(data, key, nonce)): writes a 16-byte tag over data.
 * A (key, nonce) pair may be reused for this function only. Not a hash: whoever knows the
 * key can make collisions. Returns 0, or -1 on invalid arguments (tag zero-filled).
 */
int HiAE_mac(const uint8_t *key, const uint8_t *nonce, const uint8_t *data, size_t data_len,
             uint8_t *tag);

/* ------------------------------------------------------------------------------------------ */
/* Library and implementation selection                                                       */
/* ------------------------------------------------------------------------------------------ */

/** Detects the CPU's features (optional: every function does it on first use). Returns 0. */
int HiAE_init_library(void);

/**
 * The name of the implementation HiAE functions run on now, a static string:
 * "VAES-AVX512", "VAES-AVX2", "AES-NI", "ARM-AES-SHA3", "ARM-AES" or "Portable"
 * (constant-time software AES). Every name returned is accepted by
 * HiAE_force_implementation.
 */
const char *HiAE_get_implementation_name(void);

/**
 * Selects the implementation for all following HiAE calls in this process (HiAEx2 and HiAEx4
 * have their own setting). Accepts the names above and libhiae's: "VAES+AVX512",
 * "VAES-AVX2", "AES-NI", "AESNI-AVX", "ARM SHA3", "ARM NEON", "ARM", "ARM-Crypto",
 * "Software"; case and the separators '-', '_', '+', ' ' do not matter. NULL restores
 * automatic selection (the fastest). Returns 0, or -1 if the name is unknown or the
 * implementation cannot run on this CPU (the setting is then unchanged). Results never
 * depend on the implementation, only speed does.
 */
int HiAE_force_implementation(const char *impl_name);

/** Compares two 16-byte tags in constant time: 0 if equal, -1 if not (or if one is NULL). */
int HiAE_verify_tag(const uint8_t *expected_tag, const uint8_t *actual_tag);

/* ------------------------------------------------------------------------------------------ */
/* Streaming: one message whose associated data and body arrive in pieces of any sizes        */
/* ------------------------------------------------------------------------------------------ */

/** Stream phase, readable in HiAE_stream_state_t.phase. */
typedef enum {
    HIAE_STREAM_INIT  = 0, /**< after HiAE_stream_init */
    HIAE_STREAM_AD    = 1, /**< absorbing associated data */
    HIAE_STREAM_MSG   = 2, /**< encrypting or decrypting */
    HIAE_STREAM_FINAL = 3  /**< finished, or refused after a misuse (see below) */
} HiAE_stream_phase_t;

/** Stream direction, readable in HiAE_stream_state_t.mode. */
typedef enum {
    HIAE_STREAM_MODE_NONE    = 0, /**< no message byte yet */
    HIAE_STREAM_MODE_ENCRYPT = 1,
    HIAE_STREAM_MODE_DECRYPT = 2
} HiAE_stream_mode_t;

/**
 * Streaming state. Programs may read phase and mode; every other member is private to the
 * library. sizeof 304 and alignment 8 where size_t is 8 bytes (x86-64, aarch64);
 * 292 and 4 where it is 4 bytes.
 *
 * Misuse is refused, never half-done: an absorb after the first encrypt/decrypt, an encrypt
 * on a decrypting stream (or the reverse), any call after finalize/verify, a NULL pointer
 * with a non-zero length, a NULL key or nonce in HiAE_stream_init, or a total length over
 * 2^61 - 1 bytes moves the stream to HIAE_STREAM_FINAL and wipes it. From then on encrypt
 * and decrypt zero-fill their output, finalize writes an all-zero tag and verify returns -1.
 */
typedef struct {
    HiAE_state_t        state;
    uint8_t             buffer[16];
    size_t              offset;
    size_t              ad_len;
    size_t              msg_len;
    HiAE_stream_phase_t phase;
    HiAE_stream_mode_t  mode;
} HiAE_stream_state_t;

/** Starts a stream with key and nonce (phase HIAE_STREAM_INIT, mode NONE). */
void HiAE_stream_init(HiAE_stream_state_t *stream, const uint8_t *key, const uint8_t *nonce);

/** Appends ad_len bytes of associated data; only before the first encrypt/decrypt. */
void HiAE_stream_absorb(HiAE_stream_state_t *stream, const uint8_t *ad, size_t ad_len);

/**
 * Encrypts the next len bytes of the message from pt into ct (ct may equal pt). The
 * ciphertext of any chunking equals HiAE_encrypt's.
 */
void HiAE_stream_encrypt(HiAE_stream_state_t *stream, uint8_t *ct, const uint8_t *pt, size_t len);

/**
 * Decrypts the next len bytes of ciphertext from ct into pt (pt may equal ct).
 *
 * WARNING: the plaintext written here is UNVERIFIED. It is released before the tag is
 * checked, because this is libhiae's streaming contract. Until HiAE_stream_verify returns 0
 * it may be attacker-chosen: do not parse it, act on it, or write it anywhere it could be
 * taken for authentic (use a temporary file, not the destination), and discard all of it if
 * verification fails. Where the whole message fits in memory, HiAE_decrypt is the safe choice:
 * it never releases unverified plaintext.
 */
void HiAE_stream_decrypt(HiAE_stream_state_t *stream, uint8_t *pt, const uint8_t *ct, size_t len);

/**
 * Finishes the message and writes its 16-byte tag (encryption side). The stream is then
 * wiped and in phase HIAE_STREAM_FINAL. On a refused stream the tag written is all zeros.
 */
void HiAE_stream_finalize(HiAE_stream_state_t *stream, uint8_t *tag);

/**
 * Finishes a decrypted message and checks expected_tag in constant time. Returns 0 if it is
 * valid, -1 otherwise: then everything HiAE_stream_decrypt produced for this stream is not
 * authentic and must be discarded. The stream is wiped and in phase HIAE_STREAM_FINAL.
 */
int HiAE_stream_verify(HiAE_stream_state_t *stream, const uint8_t *expected_tag);

/* ------------------------------------------------------------------------------------------ */
/* Block API: the raw cipher, the caller handles lengths and order                            */
/* ------------------------------------------------------------------------------------------ */
/*
 * Sequence: HiAE_init, HiAE_absorb (associated data), HiAE_enc or HiAE_dec (message),
 * HiAE_finalize with the total lengths. Every absorb/enc/dec call except the last of its kind
 * must process a multiple of 16 bytes; a final partial block is zero-padded as the
 * specification requires (in decryption the state absorbs the padded plaintext). Nothing
 * here checks the order of calls, nonce uniqueness or tags: use HiAE_verify_tag to compare.
 * HiAE's MAC of data equals HiAE_init, HiAE_absorb(data), HiAE_finalize(data_len, 0).
 */

/**
 * Initializes state with key and nonce. With a NULL key or nonce the state is filled with
 * random bytes from the operating system instead, so nothing produced from it can be
 * predicted or verified (if the system has no randomness to give, the process aborts).
 */
void HiAE_init(HiAE_state_t *state, const uint8_t *key, const uint8_t *nonce);

/** Absorbs len bytes of associated data (a multiple of 16, except on the last call). */
void HiAE_absorb(HiAE_state_t *state, const uint8_t *ad, size_t len);

/**
 * Writes the 16-byte tag for ad_len bytes of associated data and msg_len bytes of message
 * (lengths in bytes). The state is wiped (zero-filled); it must not be used again.
 */
void HiAE_finalize(HiAE_state_t *state, uint64_t ad_len, uint64_t msg_len, uint8_t *tag);

/**
 * Encrypts size bytes from mi into ci (a multiple of 16, except on the last call; ci may
 * equal mi). On invalid arguments the state is unchanged and ci is zero-filled.
 */
void HiAE_enc(HiAE_state_t *state, uint8_t *ci, const uint8_t *mi, size_t size);

/**
 * Decrypts size bytes from ci into mi (a multiple of 16, except on the last call; mi may
 * equal ci). The plaintext is unverified until the caller checks the tag. On invalid
 * arguments the state is unchanged and mi is zero-filled.
 */
void HiAE_dec(HiAE_state_t *state, uint8_t *mi, const uint8_t *ci, size_t size);

/**
 * Encrypts size < 16 bytes from mi into ci with the current keystream, WITHOUT updating the
 * state: for output that is needed before its block is complete; the completed block must
 * then go through HiAE_enc. size >= 16 is invalid (ci zero-filled).
 */
void HiAE_enc_partial_noupdate(HiAE_state_t *state, uint8_t *ci, const uint8_t *mi, size_t size);

/**
 * Decrypts size < 16 bytes from ci into mi with the current keystream, WITHOUT updating the
 * state (the completed block must then go through HiAE_dec). The plaintext is unverified.
 * size >= 16 is invalid (mi zero-filled).
 */
void HiAE_dec_partial_noupdate(HiAE_state_t *state, uint8_t *mi, const uint8_t *ci, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* HIAE_H */
