/* testutil.h - where tests find their real inputs. Tests run from the repo root. */
#ifndef HOTSIM_TESTUTIL_H
#define HOTSIM_TESTUTIL_H

/* Real arm64 kernels built by `make kernels` (kernels/linux/build.sh):
 * base, base-btf, base-clang, cswitch-inline, irq-direct, preempt-none, null */
#define HS_KERNEL(variant) "build/kernels/" variant ".vmlinux"

/* Small cross-compiled fixtures built by `make fixtures` (kernels/fixtures/) */
#define HS_FIXTURE(name) "kernels/fixtures/build/" name

#endif
