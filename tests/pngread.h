/*
 * pngread.h - reads the PNGs rsvg-convert writes (8 bits a channel, RGB
 * or RGBA, not interlaced) into RGBA pixels, for tests that look at a
 * rendered picture. zlib inflates (libelf-dev depends on zlib1g-dev).
 */
#ifndef HOTSIM_TESTS_PNGREAD_H
#define HOTSIM_TESTS_PNGREAD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct png {
	unsigned w, h;
	uint8_t *rgba;		/* w x h x 4, row by row */
};

static inline uint32_t png_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The filter's predictor (PNG spec 9.2): a left, b above, c above-left */
static inline int png_predict(int type, int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	switch (type) {
	case 1: return a;
	case 2: return b;
	case 3: return (a + b) / 2;
	case 4: return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
	default: return 0;
	}
}

/* Undo each scanline's filter in raw, widening to RGBA. 0 or -1. */
static inline int png_unfilter(struct png *p, uint8_t *raw, unsigned bpp)
{
	size_t stride = (size_t)p->w * bpp;

	p->rgba = malloc((size_t)p->w * p->h * 4);
	if (!p->rgba)
		return -1;
	for (unsigned y = 0; y < p->h; y++) {
		/* each line is its filter type, then its bytes */
		uint8_t *line = raw + y * (stride + 1) + 1, *prev = y ? line - stride - 1 : NULL;
		int type = line[-1];

		for (size_t x = 0; x < stride; x++) {
			int a = x >= bpp ? line[x - bpp] : 0, b = prev ? prev[x] : 0;
			int c = prev && x >= bpp ? prev[x - bpp] : 0;

			line[x] = (uint8_t)(line[x] + png_predict(type, a, b, c));
		}
		for (unsigned x = 0; x < p->w; x++) {
			memcpy(p->rgba + ((size_t)y * p->w + x) * 4, line + (size_t)x * bpp, 3);
			p->rgba[((size_t)y * p->w + x) * 4 + 3] = bpp == 4 ? line[(size_t)x * bpp + 3] : 255;
		}
	}
	return 0;
}

/* 0, or -1 for a file that is not such a PNG. */
static inline int png_read(const uint8_t *d, size_t n, struct png *p)
{
	uint8_t *idat = NULL, *raw;
	size_t nidat = 0;
	uLongf nraw;
	unsigned bpp = 0;
	int rc = -1;

	memset(p, 0, sizeof(*p));
	if (n < 8 || memcmp(d, "\x89PNG\r\n\x1a\n", 8))
		return -1;
	for (size_t at = 8; at + 12 <= n;) {
		uint32_t len = png_be32(d + at);
		const uint8_t *body = d + at + 8;

		if (at + 12 + len > n)
			break;
		if (!memcmp(d + at + 4, "IHDR", 4) && len >= 13) {
			p->w = png_be32(body);
			p->h = png_be32(body + 4);
			bpp = body[8] == 8 && !body[12] ? (body[9] == 6 ? 4 : body[9] == 2 ? 3 : 0) : 0;
		} else if (!memcmp(d + at + 4, "IDAT", 4)) {
			uint8_t *more = realloc(idat, nidat + len);

			if (!more)
				break;
			idat = more;
			memcpy(idat + nidat, body, len);
			nidat += len;
		}
		at += 12 + len;
	}
	nraw = (uLongf)p->h * ((uLongf)p->w * bpp + 1);
	raw = bpp && nidat ? malloc(nraw) : NULL;
	if (raw && uncompress(raw, &nraw, idat, nidat) == Z_OK && nraw == (uLongf)p->h * ((uLongf)p->w * bpp + 1))
		rc = png_unfilter(p, raw, bpp);
	free(raw);
	free(idat);
	return rc;
}

#endif
