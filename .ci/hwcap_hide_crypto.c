/* LD_PRELOAD shim for aarch64 tests under qemu: hides the AES, PMULL, SHA3 and SHA512 bits of
 * AT_HWCAP, so that run-time detection sees a CPU without crypto extensions and the portable
 * backend runs (no qemu CPU model turns AES off). Built with
 *   aarch64-linux-gnu-gcc -shared -fPIC -O2 -o hwcap_hide_crypto.so hwcap_hide_crypto.c -ldl
 */
#define _GNU_SOURCE
#include <asm/hwcap.h>
#include <dlfcn.h>
#include <sys/auxv.h>

unsigned long getauxval(unsigned long type)
{
    static unsigned long (*real_getauxval)(unsigned long);
    if (!real_getauxval)
        real_getauxval = (unsigned long (*)(unsigned long))dlsym(RTLD_NEXT, "getauxval");
    unsigned long value = real_getauxval(type);
    if (type == AT_HWCAP)
        value &= ~(unsigned long)(HWCAP_AES | HWCAP_PMULL | HWCAP_SHA3 | HWCAP_SHA512);
    return value;
}
