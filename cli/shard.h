/*
 * shard.h - `compare --shard K/N` output and `hotsim merge` input: the
 * rows a share of the work measured, in a JSON document (schema
 * hotsim-shard/1) that carries everything a report needs of them - every
 * field of every row, each sample, doubles to the last bit - with the
 * command line that made them (without --shard), hotsim's version and
 * each image's identity, so that the merge can check that the shards
 * belong together and print exactly what the unsharded command prints.
 *
 * A unit of work is (core, path): unit u = core index x paths + path index
 * goes to shard (u mod N) + 1, on every image (hotsim/measure.h,
 * ms_in_shard). A shard lists, per image, its units and their rows.
 */
#ifndef HOTSIM_CLI_SHARD_H
#define HOTSIM_CLI_SHARD_H

#include <stdio.h>

#include "hotsim/measure.h"
#include "json_read.h"

#define SHARD_SCHEMA "hotsim-shard/1"

/* "K/N" into k, n (1 <= K <= N <= 1024); -1 with hs_errmsg(). */
int shard_parse_spec(const char *spec, unsigned *k, unsigned *n);

/* The document of a measured shard: argv is the command's (argv[0] the
 * command, --shard left out), imgs its images (measured with m). */
int shard_write(FILE *f, int argc, char *const *argv, const struct ms_options *m,
		struct ms_image *const *imgs, int nimg);

/* One shard read back. */
struct shard {
	char file[300];
	struct jr *doc;
	const char *command;
	int argc;
	const char *argv[128];		/* into doc; argv[0] is the command */
	unsigned k, n;
	const struct jr *images;	/* the "images" array */
};

/* Read and check file (the schema, this hotsim's version); -1 with
 * hs_errmsg() naming the file. */
int shard_read(const char *file, struct shard *s);
void shard_free(struct shard *s);

/* The identity of an image a shard records and a merge checks. */
void shard_image_id(const struct hs_image *img, char *buf, size_t len);

/*
 * Image i's rows of unit (core c, path k) of m from shard s into out
 * (appended); -1 with hs_errmsg() when the shard lacks them or they are
 * malformed.
 */
int shard_rows(const struct shard *s, int i, const struct ms_options *m, int c, int k, struct ms_image *out);

#endif
