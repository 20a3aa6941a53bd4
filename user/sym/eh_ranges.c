// SPDX-License-Identifier: GPL-2.0
/* Function starts from .eh_frame_hdr; see sym/eh_ranges.h. */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "sym/eh_ranges.h"

#define DW_EH_PE_omit 0xff
#define DW_EH_PE_datarel_sdata4 0x3b /* the only table encoding ld emits */
#define EH_MAX_FDES (1u << 22)

/* The .eh_frame_hdr section's data and address, or its PT_GNU_EH_FRAME. */
static const uint8_t *find_hdr(Elf *elf, size_t *size, uint64_t *vaddr)
{
	size_t shstrndx, n = 0, i;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Phdr ph;
	Elf_Data *d;

	if (!elf_getshdrstrndx(elf, &shstrndx)) {
		while ((scn = elf_nextscn(elf, scn))) {
			const char *name;

			if (!gelf_getshdr(scn, &sh) ||
			    sh.sh_type != SHT_PROGBITS)
				continue;
			name = elf_strptr(elf, shstrndx, sh.sh_name);
			if (!name || strcmp(name, ".eh_frame_hdr"))
				continue;
			d = elf_getdata(scn, NULL);
			if (!d || !d->d_buf)
				return NULL;
			*size = d->d_size;
			*vaddr = sh.sh_addr;
			return d->d_buf;
		}
	}
	if (elf_getphdrnum(elf, &n))
		return NULL;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_GNU_EH_FRAME)
			continue;
		d = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz,
					 ELF_T_BYTE);
		if (!d || !d->d_buf)
			return NULL;
		*size = d->d_size;
		*vaddr = ph.p_vaddr;
		return d->d_buf;
	}
	return NULL;
}

/* Size of a value in pointer encoding enc; 0 when not supported. */
static size_t enc_size(uint8_t enc)
{
	switch (enc & 0x0f) {
	case 0x00: /* absptr */
	case 0x04: /* udata8 */
	case 0x0c: /* sdata8 */
		return 8;
	case 0x02: /* udata2 */
	case 0x0a: /* sdata2 */
		return 2;
	case 0x03: /* udata4 */
	case 0x0b: /* sdata4 */
		return 4;
	default:
		return 0;
	}
}

static uint64_t read_u(const uint8_t *p, size_t sz)
{
	uint64_t v = 0;
	uint32_t v4;
	uint16_t v2;

	if (sz == 8) {
		memcpy(&v, p, 8);
	} else if (sz == 4) {
		memcpy(&v4, p, 4);
		v = v4;
	} else if (sz == 2) {
		memcpy(&v2, p, 2);
		v = v2;
	}
	return v;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int eh_frame_starts(Elf *elf, uint64_t **starts, size_t *n)
{
	const uint8_t *h;
	size_t size = 0, off, psz, csz, i;
	uint64_t vaddr = 0, count, *v;

	*starts = NULL;
	*n = 0;
	h = find_hdr(elf, &size, &vaddr);
	/* version 1, then the encodings of eh_frame_ptr, fde_count, table */
	if (!h || size < 4 || h[0] != 1 || h[2] == DW_EH_PE_omit ||
	    h[3] != DW_EH_PE_datarel_sdata4)
		return 0;
	psz = h[1] == DW_EH_PE_omit ? 0 : enc_size(h[1]);
	csz = enc_size(h[2]);
	if ((h[1] != DW_EH_PE_omit && !psz) || !csz || 4 + psz + csz > size)
		return 0;
	off = 4 + psz;
	count = read_u(h + off, csz);
	off += csz;
	if (!count || count > EH_MAX_FDES || count > (size - off) / 8)
		return 0;
	v = malloc(count * sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < count; i++) {
		int32_t loc;

		memcpy(&loc, h + off + i * 8, 4);
		v[i] = vaddr + (uint64_t)(int64_t)loc;
	}
	/* Sorted by the linker; a damaged file is sorted here. */
	qsort(v, count, sizeof(*v), cmp_u64);
	*starts = v;
	*n = count;
	return 0;
}

void elf_soname(Elf *elf, char *out, size_t outsz)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	out[0] = '\0';
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		size_t i, k;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			return;
		k = d->d_size / sh.sh_entsize;
		for (i = 0; i < k; i++) {
			GElf_Dyn dyn;
			const char *s;

			if (!gelf_getdyn(d, (int)i, &dyn) ||
			    dyn.d_tag == DT_NULL)
				return;
			if (dyn.d_tag != DT_SONAME)
				continue;
			s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
			if (s && strlen(s) < outsz)
				strcpy(out, s);
			return;
		}
	}
}
