/*
 * mca_main.c - the full llvm-mca cross-check (scripts/mca-crosscheck.sh
 * builds and runs it): every path on a kernel image, every distinct
 * straight-line block, every core with an llvm-mca CPU; a Markdown report. Not a Criterion
 * test (tests/test_mca.c runs a bounded version in `make check`).
 *
 *   mca_main [--kernel VMLINUX] [--max-blocks N] [--worst N] [--out FILE]
 */
#include <getopt.h>

#include "mca_crosscheck.h"

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kernel", required_argument, NULL, 'k' }, { "max-blocks", required_argument, NULL, 'm' },
		{ "worst", required_argument, NULL, 'w' },  { "out", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	const char *kernel = "build/kernels/7.2-base.vmlinux", *out = NULL;
	size_t max_blocks = MCA_MAX_BLOCKS;
	unsigned worst = 8;
	struct mca_core cores[MCA_MAX_CORES];
	const struct hs_core *list[MCA_MAX_CORES];
	int ncores = mca_cores(list);
	char tmp[] = "/tmp/hotsim-mca-XXXXXX.s";
	struct hs_image *img;
	FILE *f = stdout;
	int c, fd, rc = 0;

	while ((c = getopt_long(argc, argv, "k:m:w:o:", opts, NULL)) != -1) {
		switch (c) {
		case 'k': kernel = optarg; break;
		case 'm': max_blocks = strtoul(optarg, NULL, 10); break;
		case 'w': worst = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'o': out = optarg; break;
		default:
			fprintf(stderr, "usage: mca_main [--kernel V] [--max-blocks N] [--worst N] [--out F]\n");
			return 2;
		}
	}
	img = hs_image_open(kernel);
	if (!img) {
		fprintf(stderr, "mca: %s\n", hs_errmsg());
		return 2;
	}
	fd = mkstemps(tmp, 2);
	if (fd < 0) {
		fprintf(stderr, "mca: cannot create a temporary file\n");
		return 2;
	}
	close(fd);
	for (int k = 0; k < ncores && !rc; k++) {
		rc = mca_core_run(&cores[k], img, list[k], NULL, max_blocks, tmp);
		if (rc)
			fprintf(stderr, "mca: %s: %s\n", list[k]->name, hs_errmsg());
	}
	unlink(tmp);
	if (!rc) {
		if (out && !(f = fopen(out, "w"))) {
			fprintf(stderr, "mca: cannot write %s\n", out);
			rc = -1;
		} else {
			fprintf(f, "Kernel: %s (%s). Paths:", img->path, img->version);
			for (unsigned i = 0; i < cores[0].nruns; i++)
				fprintf(f, " %s%s", cores[0].runs[i].run.def ? cores[0].runs[i].run.def->name : "?", cores[0].runs[i].run.ok ? "" : " (did not run)");
			fprintf(f, ". %d iterations per block; difference = hotsim / llvm-mca - 1.\n\n", MCA_ITER);
			mca_report(f, img, cores, ncores, worst);
			if (f != stdout)
				fclose(f);
		}
	}
	for (int k = 0; k < ncores; k++)
		mca_free(&cores[k]);
	hs_image_close(img);
	return rc ? 1 : 0;
}
