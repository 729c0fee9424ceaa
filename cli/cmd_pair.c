/*
 * cmd_pair.c - `hotsim pair TREE (--patch FILE | --commits BASE..HEAD)`:
 * build a base/patched pair of images from a kernel tree and compare them.
 * The building is the kernel recipe's (kernels/linux/recipe.sh), run by the
 * hotsim-pair script; this file reads the options and hands over to it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hotsim/err.h"

struct pair_opts {
	const char *patch, *commits, *config, *cc, *out;
};

static int run(void *p, char **args)
{
	const struct pair_opts *o = p;
	const char *pass[] = { "--patch", o->patch, "--commits", o->commits, "--config", o->config,
			       "--cc", o->cc, "--out", o->out };
	char self[PATH_MAX], script[PATH_MAX + 32];
	char *argv[16];
	int n = 0;
	ssize_t len;

	if (!!o->patch == !!o->commits) {
		fprintf(stderr, "hotsim pair: give one of --patch FILE and --commits BASE..HEAD (hotsim pair --help)\n");
		return HS_EXIT_ERROR;
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[len > 0 ? len : 0] = 0;
	if (cli_script("hotsim-pair", "HOTSIM_PAIR", script, sizeof(script))) {
		hs_fail("pair: no hotsim-pair script beside %s (make install puts it there)", self);
		return cli_error();
	}
	setenv("HOTSIM_BIN", self, 1);
	argv[n++] = script;
	argv[n++] = args[0];
	for (size_t i = 0; i < HS_ARRAY_SIZE(pass); i += 2)
		if (pass[i + 1]) {
			argv[n++] = (char *)pass[i];
			argv[n++] = (char *)pass[i + 1];
		}
	argv[n] = NULL;
	fflush(NULL);
	execv(script, argv);
	hs_fail("pair: cannot run %s", script);
	return cli_error();
}

static const struct cli_opt opts[] = {
	OPT("patch", "FILE", OPT_STRING, struct pair_opts, patch,
	    "the patch (diff -u or git diff, applied with -p1) on top of TREE as it is"),
	OPT("commits", "BASE..HEAD", OPT_STRING, struct pair_opts, commits,
	    "TREE is a git checkout: commit BASE against commit HEAD"),
	OPT("config", "FILE", OPT_STRING, struct pair_opts, config,
	    "fragment merged onto allnoconfig, or defconfig (default: hotsim's base.config)"),
	OPT_CHOICE("cc", "CC", OPT_STRING, struct pair_opts, cc, "gcc clang",
		   "gcc (aarch64-linux-gnu-, the default) or clang (LLVM=1)"),
	OPT("out", "DIR", OPT_STRING, struct pair_opts, out, "copy the images to DIR/base.vmlinux, DIR/patched.vmlinux"),
	OPT_TABLE_END
};

static const char *const notes[] = {
	"builds out of tree (make O=), the patched side incrementally from a copy of the base's objects;",
	"cached by tree state, config and compiler in $HOTSIM_CACHE/pair (default ~/.cache/hotsim/pair);",
	"then runs hotsim compare on the pair and says where the images are; progress on stderr",
	"exit status: compare's; 2 on errors (a patch that does not apply: before any build)",
	NULL
};

const struct cli_cmd cmd_pair = {
	.name = "pair", .args = "TREE", .nargs = 1,
	.summary = "build a base/patched pair from your kernel tree and a patch, and compare them",
	.notes = notes,
	.opts = opts, .size = sizeof(struct pair_opts), .run = run,
};
