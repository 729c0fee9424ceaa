/*
 * test_kcache.c - the kernel cache's guarantees (docs/reliability.md):
 * an image that is truncated or has a flipped bit is found by its checksum
 * and built again, byte for byte the same (the build is reproducible).
 * Runs in a throwaway cache made of hard links to the real one (the
 * baseline's image, tree and source: read only), so the damaged entry is
 * never one other tests use; the rebuild is the cheap incremental one of
 * 7.2-irq-runtime-const. The throwaway cache lives inside the real one
 * (its scratch/ folder), so the links never cross a filesystem or a mount
 * (/tmp may be a tmpfs, the cache a bind mount); where even that fails,
 * copies stand in for links, as the build scripts' link_tree does.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include "testutil.h"

static int sh(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* the throwaway cache holds a gigabyte of objects: never leave it behind */
static void fail_clean(const char *t, const char *why)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "tail -5 %s/log* >&2; rm -rf %s", t, t);
	sh(cmd);
	cr_assert_fail("%s", why);
}

Test(kcache, damaged_image_found_and_rebuilt, .timeout = 1200)
{
	char t[600], cmd[4096], real[512];
	const char *c = getenv("HOTSIM_CACHE");
	char *log;
	size_t n;
	int ok;

	if (getenv("HOTSIM_SAN"))	/* shell scripts only: nothing to sanitize */
		cr_skip_test("kernel builds: run by the normal build");
	hs_kernel("7.2-base");
	hs_kernel("7.2-irq-runtime-const");
	snprintf(real, sizeof(real), "%s", c && *c ? c : strcat(strcpy(cmd, getenv("HOME")), "/.cache/hotsim"));
	snprintf(t, sizeof(t), "%s/scratch", real);
	mkdir(t, 0755);
	snprintf(t, sizeof(t), "%s/scratch/kcache-XXXXXX", real);
	cr_assert(mkdtemp(t));
	/* the baseline's entry, tree, source (and its tarball: no download) and
	 * step counts, as hard links */
	snprintf(cmd, sizeof(cmd),
		 "set -e; k=$(kernels/linux/build.sh --key 7.2-base); r=%s; t=%s; "
		 "mkdir -p $t/images $t/trees $t/links; ln_() { cp -al \"$1\" \"$2\" 2>/dev/null || cp -a \"$1\" \"$2\"; }; "
		 "ln_ $r/src $t/src; if [ -d $r/debs ]; then ln_ $r/debs $t/debs; fi; "
		 /* as clone_tree does: sources linked, objects copied (a
		  * linked object would be rewritten through the link) */
		 "b=$t/trees/7.2-base-$k; ln_ $t/src/7.2/linux-source-7.2 $b; "
		 "(cd $r/trees/7.2-base-$k && find . \\( -type f -links 1 -o -type l \\) -print0 | "
		 "tar --null -T - -cf -) | tar -C $b -xf -; "
		 "cp -a $r/images/7.2-base-$k.* $t/images/; "
		 "cp $r/steps-* $t/ 2>/dev/null || true; "
		 "HOTSIM_CACHE=$t HOTSIM_KERNEL_LINKS=$t/links kernels/linux/build.sh 7.2-irq-runtime-const > $t/log1 2>&1; "
		 "cmp $t/links/7.2-irq-runtime-const.vmlinux build/kernels/7.2-irq-runtime-const.vmlinux", real, t);
	if (sh(cmd) != 0)
		fail_clean(t, "the throwaway cache does not build 7.2-irq-runtime-const as the real one");
	/* truncated: found, built again, the same bytes */
	snprintf(cmd, sizeof(cmd),
		 "set -e; t=%s; f=$(readlink $t/links/7.2-irq-runtime-const.vmlinux); truncate -s 100000 $f; "
		 "if HOTSIM_CACHE=$t kernels/linux/build.sh --verify 7.2-irq-runtime-const 2>/dev/null; then exit 1; fi; "
		 "HOTSIM_CACHE=$t HOTSIM_KERNEL_LINKS=$t/links kernels/linux/build.sh 7.2-irq-runtime-const > $t/log2 2>&1; "
		 "cmp $t/links/7.2-irq-runtime-const.vmlinux build/kernels/7.2-irq-runtime-const.vmlinux", t);
	if (sh(cmd) != 0)
		fail_clean(t, "a truncated image was not rebuilt the same");
	snprintf(cmd, sizeof(cmd), "%s/log2", t);
	log = (char *)hs_test_slurp(cmd, &n);
	ok = log && strstr(log, "damaged (checksum mismatch); building it again");
	free(log);
	if (!ok)
		fail_clean(t, "the rebuild did not say why (log2)");
	/* one flipped bit: the same */
	snprintf(cmd, sizeof(cmd),
		 "set -e; t=%s; f=$(readlink $t/links/7.2-irq-runtime-const.vmlinux); "
		 "o=$(( $(stat -c %%s $f) / 2 )); b=$(od -An -tu1 -j$o -N1 $f | tr -d ' '); "
		 "printf \"\\\\$(printf %%o $(( b ^ 1 )))\" | dd of=$f bs=1 seek=$o conv=notrunc status=none; "
		 "HOTSIM_CACHE=$t HOTSIM_KERNEL_LINKS=$t/links kernels/linux/build.sh --verify 7.2-irq-runtime-const 2> $t/log3 && exit 1; "
		 "grep -q 'damaged (checksum mismatch)' $t/log3; "
		 "HOTSIM_CACHE=$t HOTSIM_KERNEL_LINKS=$t/links kernels/linux/build.sh 7.2-irq-runtime-const > $t/log4 2>&1; "
		 "grep -q 'building it again' $t/log4; "
		 "cmp $t/links/7.2-irq-runtime-const.vmlinux build/kernels/7.2-irq-runtime-const.vmlinux", t);
	if (sh(cmd) != 0)
		fail_clean(t, "a flipped bit was not found and rebuilt the same");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", t);
	cr_assert_eq(sh(cmd), 0);
}
