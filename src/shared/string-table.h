/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An enum's names as one table, NAME_table[] indexed by the enum, and its
 * NAME_to_string() and NAME_from_string() generated over it, as systemd's
 * src/basic/string-table.h DEFINE_STRING_TABLE_LOOKUP does. A table may have
 * holes (values without a word): they give NULL and match no word.
 *
 *   static const char *const severity_table[_SEVERITY_MAX] = {
 *           [SEVERITY_INFO] = "info", ...
 *   };
 *   DEFINE_STRING_TABLE_LOOKUP(severity, enum severity);
 */
#pragma once

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>

#include "shared/macro.h"

/* The index of s in table, -EINVAL for NULL or a word the table lacks. */
static inline ssize_t string_table_lookup(const char *const *table, size_t n, const char *s)
{
	if (!s)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (table[i] && strcmp(table[i], s) == 0)
			return (ssize_t)i;
	return -EINVAL;
}

/* ARRAY_SIZE of a pointer would compile and read past the table; the caller's ';' ends it. */
#define _STRING_TABLE_IS_ARRAY(name)                                                          \
	_Static_assert(!__builtin_types_compatible_p(__typeof__(name##_table),               \
						     __typeof__(&(name##_table)[0])), \
		       #name "_table is an array")

/* NULL for a value out of the table (through size_t, a negative one too) or a hole. */
#define _DEFINE_STRING_TABLE_LOOKUP_TO_STRING(name, type, scope)                \
	scope const char *name##_to_string(type i)                             \
	{                                                                       \
		return (size_t)i < ARRAY_SIZE(name##_table) ? name##_table[i] : NULL; \
	}                                                                       \
	_STRING_TABLE_IS_ARRAY(name)

/* (type)-EINVAL (the enum's _X_INVALID) for NULL or an unknown word. */
#define _DEFINE_STRING_TABLE_LOOKUP_FROM_STRING(name, type, scope)                   \
	scope type name##_from_string(const char *s)                                \
	{                                                                            \
		ssize_t i = string_table_lookup(name##_table, ARRAY_SIZE(name##_table), s); \
		return (type)i;                                                      \
	}                                                                            \
	_STRING_TABLE_IS_ARRAY(name)

/* For a word read from the kernel: absent gives if_null, one the table lacks if_other. */
#define _DEFINE_STRING_TABLE_LOOKUP_FROM_STRING_OR(name, type, if_null, if_other, scope) \
	scope type name##_from_string(const char *s)                                    \
	{                                                                                \
		if (!s)                                                                  \
			return (if_null);                                                \
		ssize_t i = string_table_lookup(name##_table, ARRAY_SIZE(name##_table), s); \
		return i < 0 ? (if_other) : (type)i;                                     \
	}                                                                                \
	_STRING_TABLE_IS_ARRAY(name)

/* Each ends in a declaration: write them with a ';' after, at file scope. */
#define DEFINE_STRING_TABLE_LOOKUP_TO_STRING(name, type) \
	_DEFINE_STRING_TABLE_LOOKUP_TO_STRING(name, type, )
#define DEFINE_STRING_TABLE_LOOKUP_FROM_STRING(name, type) \
	_DEFINE_STRING_TABLE_LOOKUP_FROM_STRING(name, type, )
#define DEFINE_STRING_TABLE_LOOKUP(name, type)              \
	_DEFINE_STRING_TABLE_LOOKUP_TO_STRING(name, type, ); \
	_DEFINE_STRING_TABLE_LOOKUP_FROM_STRING(name, type, )
#define DEFINE_STRING_TABLE_LOOKUP_FROM_STRING_OR(name, type, if_null, if_other) \
	_DEFINE_STRING_TABLE_LOOKUP_FROM_STRING_OR(name, type, if_null, if_other, )

#define DEFINE_PRIVATE_STRING_TABLE_LOOKUP_TO_STRING(name, type) \
	_DEFINE_STRING_TABLE_LOOKUP_TO_STRING(name, type, static)
#define DEFINE_PRIVATE_STRING_TABLE_LOOKUP_FROM_STRING(name, type) \
	_DEFINE_STRING_TABLE_LOOKUP_FROM_STRING(name, type, static)
#define DEFINE_PRIVATE_STRING_TABLE_LOOKUP(name, type)              \
	_DEFINE_STRING_TABLE_LOOKUP_TO_STRING(name, type, static); \
	_DEFINE_STRING_TABLE_LOOKUP_FROM_STRING(name, type, static)
#define DEFINE_PRIVATE_STRING_TABLE_LOOKUP_FROM_STRING_OR(name, type, if_null, if_other) \
	_DEFINE_STRING_TABLE_LOOKUP_FROM_STRING_OR(name, type, if_null, if_other, static)
