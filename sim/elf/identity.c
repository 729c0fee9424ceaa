/*
 * identity.c - what kernel an image is: version and compiler from
 * linux_banner, the GNU build id, and a fingerprint of the embedded .config
 * (CONFIG_IKCONFIG) when there is one. compare uses these to warn when two
 * images differ in more than code.
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "elf/image_internal.h"

/* Copy a NUL-terminated string out of the image, bounded. */
static void read_cstr(const struct hs_image *img, uint64_t va, char *buf, size_t len)
{
	const uint8_t *p = hs_at(img, img->mem, va, 1);
	size_t i, avail;

	buf[0] = 0;
	if (!p)
		return;
	avail = img->span - (va - img->base);
	for (i = 0; i + 1 < len && i < avail && p[i]; i++)
		buf[i] = (char)((p[i] >= 32 && p[i] < 127) ? p[i] : ' ');
	buf[i] = 0;
}

/*
 * "Linux version 6.1.192-hotsim (user@host) (aarch64-linux-gnu-gcc (Debian
 * 12.2.0-14) 12.2.0, GNU ld ...) #1 SMP PREEMPT ..." - the compiler is the
 * second parenthesised group, which itself contains parentheses.
 */
static void parse_banner(struct hs_image *img)
{
	const char *b = img->banner, *p, *start;
	int depth = 0, a = 0, m = 0, s = 0;
	size_t n;

	if (strncmp(b, "Linux version ", 14) != 0)
		return;
	p = b + 14;
	n = strcspn(p, " ");
	if (n >= sizeof(img->version))
		n = sizeof(img->version) - 1;
	memcpy(img->version, p, n);
	img->version[n] = 0;
	/* "6.1.192-hotsim": each part clamped to a byte (KERNEL_VERSION does
	 * the same for sublevels over 255); anything else is "unknown" */
	if (sscanf(img->version, "%d.%d.%d", &a, &m, &s) >= 2 && a >= 0 && m >= 0 && a < 128 &&
	    m < 256) {
		if (s < 0)
			s = 0;
		img->version_code = (a << 16) | (m << 8) | (s > 255 ? 255 : s);
	}
	/* skip "(user@host) " */
	p = strchr(p, '(');
	if (!p || !(p = strchr(p, ')')))
		return;
	p = strchr(p, '(');
	if (!p)
		return;
	start = ++p;
	for (depth = 1; *p && depth; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == ',' && depth == 1)
			break;	/* ", GNU ld ..." follows */
	}
	n = (size_t)(p - start);
	if (depth == 0)
		n--;	/* closing parenthesis */
	if (n >= sizeof(img->compiler))
		n = sizeof(img->compiler) - 1;
	memcpy(img->compiler, start, n);
	img->compiler[n] = 0;
}

static void read_build_id(struct hs_image *img)
{
	for (size_t i = 0; i < img->nsecs; i++) {
		const struct hs_section *s = &img->secs[i];
		const uint8_t *p = hs_section_bytes(img, s), *end;

		if (s->type != SHT_NOTE || !p)
			continue;
		end = p + s->size;
		while ((size_t)(end - p) >= 12) {
			uint32_t namesz, descsz, type;
			size_t adv;

			memcpy(&namesz, p, 4);
			memcpy(&descsz, p + 4, 4);
			memcpy(&type, p + 8, 4);
			adv = 12 + ((namesz + 3ULL) & ~3ULL) + ((descsz + 3ULL) & ~3ULL);
			if (namesz > 0x1000 || descsz > 0x1000 || adv > (size_t)(end - p))
				break;
			if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(p + 12, "GNU", 4) == 0 &&
			    descsz <= 20) {
				const uint8_t *d = p + 12 + 4;

				for (uint32_t k = 0; k < descsz; k++)
					snprintf(img->build_id + 2 * k, 3, "%02x", d[k]);
				return;
			}
			p += adv;
		}
	}
}

/* kernel/configs.c wraps the gzipped .config in "IKCFG_ST" ... "IKCFG_ED". */
static void hash_ikconfig(struct hs_image *img)
{
	const uint8_t *p = memmem(img->mem, img->span, "IKCFG_ST", 8), *e;
	uint64_t h = 1469598103934665603ULL;

	if (!p)
		return;
	e = memmem(p + 8, img->span - (size_t)(p + 8 - img->mem), "IKCFG_ED", 8);
	if (!e)
		return;
	for (p += 8; p < e; p++)
		h = (h ^ *p) * 1099511628211ULL;
	img->ikconfig_hash = h;
}

/*
 * The page size the kernel was built for, from the arm64 Image header that
 * head.S puts at _text (Documentation/arch/arm64/booting.rst: code0,
 * code1, text_offset, image_size, flags, res2..res4, magic): magic
 * "ARM\x64" at +0x38, the 64-bit flags at +0x18 with the page size in
 * bits 1-2 (1: 4K, 2: 16K, 3: 64K; 0: unspecified, kernels before 3.17).
 */
static void read_page_size(struct hs_image *img)
{
	const struct hs_sym *t = hs_sym_exact(img, "_text");
	uint64_t flags;
	uint32_t magic;

	if (!t || hs_read32(img, img->mem, t->addr + 0x38, &magic) || magic != 0x644d5241u ||
	    hs_read64(img, img->mem, t->addr + 0x18, &flags))
		return;
	static const unsigned sizes[4] = { 0, 4096, 16384, 65536 };
	img->page_size = sizes[(flags >> 1) & 3];
}

void hs_image_read_identity(struct hs_image *img)
{
	const struct hs_sym *s = hs_sym_exact(img, "linux_banner");

	if (s)
		read_cstr(img, s->addr, img->banner, sizeof(img->banner));
	/* trailing newline of the banner */
	for (size_t n = strlen(img->banner); n && img->banner[n - 1] == ' '; n--)
		img->banner[n - 1] = 0;
	parse_banner(img);
	read_build_id(img);
	hash_ikconfig(img);
	read_page_size(img);
}
