/* image_internal.h - the loader's steps, split by job (image.c drives them). */
#ifndef HOTSIM_IMAGE_INTERNAL_H
#define HOTSIM_IMAGE_INTERNAL_H

#include <libelf.h>

#include "hotsim/image.h"

/* symbols.c: read .symtab, drop mapping symbols, sort */
int hs_image_load_symbols(struct hs_image *img, Elf *elf);

/* identity.c: linux_banner, build id, embedded .config */
void hs_image_read_identity(struct hs_image *img);

#endif
