/*
 * Constant-time check of the portable backend under valgrind's memcheck: the key, nonce,
 * associated data and message are marked "undefined" (secret), then HiAE, HiAEx2 and HiAEx4
 * encrypt and MAC them with the portable implementation forced. Memcheck reports every
 * conditional branch and every memory address that depends on an undefined value, so a
 * secret-dependent branch or table lookup anywhere on these paths fails the run. The
 * ciphertexts and tags are secret-derived and never inspected.
 *
 *   ct_taint            -> exit 0 when memcheck saw no secret-dependent branch or address
 *   ct_taint --control  -> branches on a secret byte on purpose: memcheck must report it
 *
 * Run under: valgrind --error-exitcode=1 ./ct_taint   (see ct-taint.sh)
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "HiAE.h"
#include "HiAEx2.h"
#include "HiAEx4.h"

static uint8_t key[32], nonce[16], ad[100], msg[4096 + 7], ct[4096 + 7], tag[16];

static void secret(void)
{
    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t) (i * 7 + 1);
    for (size_t i = 0; i < sizeof nonce; i++) nonce[i] = (uint8_t) (i * 3);
    for (size_t i = 0; i < sizeof ad; i++) ad[i] = (uint8_t) i;
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t) (i * 13);
    VALGRIND_MAKE_MEM_UNDEFINED(key, sizeof key);
    VALGRIND_MAKE_MEM_UNDEFINED(nonce, sizeof nonce);
    VALGRIND_MAKE_MEM_UNDEFINED(ad, sizeof ad);
    VALGRIND_MAKE_MEM_UNDEFINED(msg, sizeof msg);
}

int main(int argc, char **argv)
{
    secret();
    if (argc > 1 && strcmp(argv[1], "--control") == 0) {
        volatile int x = 0;
        if (key[0] & 1) x++; /* a secret-dependent branch: must be reported */
        return x;
    }
    if (HiAE_force_implementation("Portable") != 0 || HiAEx2_force_implementation("Portable") != 0
        || HiAEx4_force_implementation("Portable") != 0) {
        fprintf(stderr, "the portable implementation cannot be forced\n");
        return 2;
    }
    static const size_t lens[]    = { 0, 1, 15, 16, 33, 255, 256, 1000, 4096 + 7 };
    static const size_t ad_lens[] = { 0, 5, 100 };
    int                 rc        = 0;
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        for (size_t j = 0; j < sizeof ad_lens / sizeof ad_lens[0]; j++) {
            rc |= HiAE_encrypt(key, nonce, msg, ct, lens[i], ad, ad_lens[j], tag);
            rc |= HiAEx2_encrypt(key, nonce, msg, ct, lens[i], ad, ad_lens[j], tag);
            rc |= HiAEx4_encrypt(key, nonce, msg, ct, lens[i], ad, ad_lens[j], tag);
        }
        rc |= HiAE_mac(key, nonce, msg, lens[i], tag);
        rc |= HiAEx2_mac(key, nonce, msg, lens[i], tag);
        rc |= HiAEx4_mac(key, nonce, msg, lens[i], tag);
    }
    if (rc != 0) {
        fprintf(stderr, "an encryption or MAC call failed\n");
        return 2;
    }
    /* The tag must come out "undefined": the secret inputs really went through the code. */
    uint8_t vbits[16] = { 0 }, any = 0;
    if (VALGRIND_GET_VBITS(tag, vbits, sizeof tag) != 1) {
        fprintf(stderr, "not running under memcheck\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof vbits; i++) any |= vbits[i];
    if (any == 0) {
        fprintf(stderr, "the tag does not depend on the secret inputs: taint was lost\n");
        return 2;
    }
    printf("%u secret-dependent branches or addresses\n", (unsigned) VALGRIND_COUNT_ERRORS);
    return 0;
}
