/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening an ELF file that the target controls (its binaries, its debug
 * files, a memfd it mapped): through a root that symlinks cannot leave,
 * regular files only (never a FIFO or a device), and only when every part
 * of it that sym/ and unwind/ read (headers, symbol and string tables,
 * notes, .gnu_debuglink, .eh_frame_hdr, .eh_frame, .debug_frame) lies
 * inside the file, on data rather than in a hole, and under
 * ELF_SECTION_MAX: a sparse giant or a table that claims gigabytes is
 * refused before anything is read.
 */
#ifndef PJ_USER_ELF_OPEN_H
#define PJ_USER_ELF_OPEN_H

#include <fcntl.h>
#include <libelf.h>
#include <stdint.h>

/* The most one section (or note segment) may hold to be read. */
#define ELF_SECTION_MAX ((uint64_t)128 << 20)
/* The most section or program headers a file may have. */
#define ELF_HEADERS_MAX 65535u

/* Paths as this machine sees them (a report, a test): the root to give. */
#define ELF_ROOT_HOST AT_FDCWD

/* An ELF file read with libelf (pread, never mmap: a file truncated under
 * us must not raise SIGBUS). */
struct elf_file {
	int fd;
	Elf *elf;
	uint64_t size;
};

/*
 * Opens path resolved inside the directory rootfd, as if it were "/"
 * (openat2 RESOLVE_IN_ROOT, no magic links), or as it is with
 * ELF_ROOT_HOST. 0; -1 with errno: from the open, EINVAL for what is not a
 * regular file, ENOEXEC for what is not ELF or is refused (above).
 */
int elf_file_open(int rootfd, const char *path, struct elf_file *f);
/* The same for an fd already open on a regular file; takes it. */
int elf_file_open_fd(int fd, struct elf_file *f);
void elf_file_close(struct elf_file *f);
/* Whether [off, off + len) lies in the file and holds no hole. */
int elf_file_backed(const struct elf_file *f, uint64_t off, uint64_t len);
/* Whether the ELF file open on fd (taken, closed) exports the function name
 * in its .dynsym: 1, 0, or -1 when it cannot be read as ELF. Without
 * building its table (libjvm.so's: 100 ms of demangling and sorting). */
int elf_file_defines(int fd, const char *name);

#endif
