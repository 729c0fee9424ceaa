/*
 * jump_label.c - static keys as boot leaves them.
 *
 *   struct jump_entry { s32 code; s32 target; long key; };   16 bytes,
 *   each relative to its own field; key bit 0 = branch (likely) entry,
 *   bit 1 = in init text.
 * A site is "b target" when key_enabled XOR branch, else "nop"
 * (kernel/jump_label.c jump_label_type()). The compiled state in the file
 * reflects each key's initial value; boot then flips some keys. hotsim knows
 * the arm64 ones that follow from CPU capabilities (cpu_hwcap_keys[],
 * arm64_const_caps_ready) and the GICv3 driver's, and leaves every other key
 * at the value the image initialises it to.
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "a64/encode.h"
#include "hotsim/err.h"
#include "hotsim/patch.h"

#define ENTRY_SIZE 16
#define KEY_SIZE 16	/* struct static_key: atomic_t enabled + union */

struct boot_key {
	const char *name;
	int enabled;
	const char *why;
};

/* Keys boot sets regardless of the core (beyond cpucaps). */
static const struct boot_key boot_keys[] = {
	/* setup_system_capabilities(): capabilities are final after boot */
	{ "arm64_const_caps_ready", 1, "capabilities finalised at boot" },
	/* gic_init_bases(): without EL2 there is no split EOI/deactivate */
	{ "supports_deactivate_key", 0, "platform: no hypervisor mode (is_hyp_mode_available() false)" },
};

static int in_exec(const struct hs_image *img, uint64_t a)
{
	for (size_t i = 0; i < img->nsecs; i++) {
		const struct hs_section *s = &img->secs[i];

		if ((s->flags & SHF_EXECINSTR) && a >= s->addr && a - s->addr < s->size)
			return 1;
	}
	return 0;
}

/* Final enabled state of the key at va, and whether boot changed it. */
static int key_state(const struct hs_image *img, const uint8_t *mem, const struct hs_caps *caps,
		     uint64_t va, int *flipped)
{
	const struct hs_sym *s = hs_sym_at(img, va);
	int32_t count = 0;
	int dflt;

	memcpy(&count, hs_at(img, (uint8_t *)mem, va, 4), 4);
	dflt = count > 0;
	*flipped = 0;
	if (!s || va >= s->addr + (s->size ? s->size : KEY_SIZE))
		return dflt;
	if (!strcmp(s->name, "cpu_hwcap_keys")) {
		uint64_t cap = (va - s->addr) / KEY_SIZE;
		int on = cap < caps->ncaps && caps->cap[cap].present;

		*flipped = on != dflt;
		return on;
	}
	for (size_t i = 0; i < HS_ARRAY_SIZE(boot_keys); i++)
		if (s->addr == va && !strcmp(s->name, boot_keys[i].name)) {
			*flipped = boot_keys[i].enabled != dflt;
			return boot_keys[i].enabled;
		}
	return dflt;
}

int hs_apply_jump_labels(const struct hs_image *img, uint8_t *mem, const struct hs_caps *caps,
			 struct hs_patch_report *rep)
{
	const struct hs_sym *b = hs_sym_exact(img, "__start___jump_table");
	const struct hs_sym *e = hs_sym_exact(img, "__stop___jump_table");
	uint64_t flipped_keys[256];
	unsigned nflipped = 0;

	if (!b || !e)
		return 0;	/* no jump labels (CONFIG_JUMP_LABEL=n) */
	if (e->addr < b->addr || (e->addr - b->addr) % ENTRY_SIZE ||
	    !hs_at(img, mem, b->addr, e->addr - b->addr))
		return hs_fail("%s: __jump_table [0x%llx, 0x%llx) is malformed", img->path,
			       (unsigned long long)b->addr, (unsigned long long)e->addr);
	for (uint64_t va = b->addr; va < e->addr; va += ENTRY_SIZE) {
		const uint8_t *p = hs_at(img, mem, va, ENTRY_SIZE);
		int32_t code_off, target_off;
		int64_t key_off;
		uint64_t code, target, key;
		uint32_t before, after;
		uint8_t *site;
		int on, flipped;

		memcpy(&code_off, p, 4);
		memcpy(&target_off, p + 4, 4);
		memcpy(&key_off, p + 8, 8);
		code = va + (int64_t)code_off;
		target = va + 4 + (int64_t)target_off;
		key = (va + 8 + (uint64_t)(key_off & ~3LL));
		site = hs_at(img, mem, code, 4);
		if (!site || !in_exec(img, code) || !in_exec(img, target))
			return hs_fail("%s: jump label at 0x%llx points outside kernel text (code 0x%llx, target 0x%llx)",
				       img->path, (unsigned long long)va, (unsigned long long)code,
				       (unsigned long long)target);
		if (!hs_at(img, mem, key, KEY_SIZE))
			return hs_fail("%s: jump label at 0x%llx has key 0x%llx outside the image",
				       img->path, (unsigned long long)va, (unsigned long long)key);
		rep->jump_total++;
		on = key_state(img, mem, caps, key, &flipped);
		if (flipped && nflipped < HS_ARRAY_SIZE(flipped_keys)) {
			unsigned i;

			for (i = 0; i < nflipped && flipped_keys[i] != key; i++)
				;
			if (i == nflipped)
				flipped_keys[nflipped++] = key;
		}
		memcpy(&before, site, 4);
		if (before != A64_NOP && before != a64_gen_b(code, target))
			return hs_fail("%s: jump label site 0x%llx holds 0x%08x, neither nop nor b to its target",
				       img->path, (unsigned long long)code, before);
		if (on ^ (int)(key_off & 1)) {
			after = a64_gen_b(code, target);
			rep->jump_enabled++;
		} else {
			after = A64_NOP;
			rep->jump_disabled++;
		}
		if (before != after) {
			const struct hs_sym *ks = hs_sym_at(img, key);

			rep->jump_changed++;
			if (hs_report_site(rep, HS_SITE_JUMP, code, &before, &after, 1, 0,
					   ks ? ks->name : NULL))
				return -1;
			memcpy(site, &after, 4);
		}
	}
	rep->keys_flipped = nflipped;
	return 0;
}
