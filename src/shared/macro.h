/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Small helpers every file uses: cleanup attributes, array sizes. */
#pragma once

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
/* As kmod: a -errno result that must not be dropped, pointers that must not be NULL. */
#define _must_check_ __attribute__((warn_unused_result))
#define _nonnull_(...) __attribute__((nonnull(__VA_ARGS__)))
#define _nonnull_all_ __attribute__((nonnull))

static inline void freep(void *p)
{
	free(*(void **)p);
}
#define _cleanup_free_ _cleanup_(freep)

static inline void closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno; /* close() must not clobber the errno being returned */
		close(*fd);
		errno = saved;
	}
}
#define _cleanup_close_ _cleanup_(closep)

/* Hand ownership out of a _cleanup_ variable. */
#define TAKE_PTR(p)                       \
	({                                \
		__typeof__(p) _tmp_ = (p); \
		(p) = NULL;               \
		_tmp_;                    \
	})
#define TAKE_FD(fd)               \
	({                        \
		int _tmp_ = (fd); \
		(fd) = -1;        \
		_tmp_;            \
	})

/* AddressSanitizer reserves terabytes of address space: gcc says so one way, clang another. */
#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif
