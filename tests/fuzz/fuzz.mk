# The libFuzzer targets: one binary per tests/fuzz/*.c, built with clang,
# ASan and UBSan whatever compiler the tool is built with, into fuzz/ of the
# build tree. GNU make; `make fuzz` (Makefile.am) runs it and passes:
#   top_srcdir top_builddir FUZZ_CC LIB_FILES (the library's sources) PKG_CFLAGS PKG_LIBS
# VARIANT=cov: the same targets in fuzz-cov/, with clang's source-based
# coverage instead of the sanitizers, to measure what a corpus reaches.
ifeq ($(VARIANT),cov)
OUT = fuzz-cov
FUZZ_CFLAGS = -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter \
	-fsanitize=fuzzer-no-link -fprofile-instr-generate -fcoverage-mapping
FUZZ_LDFLAGS = -fsanitize=fuzzer -fprofile-instr-generate
else
OUT = fuzz
FUZZ_CFLAGS = -g -O1 -fno-omit-frame-pointer -Wall -Wextra -Werror -Wno-unused-parameter \
	-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
FUZZ_LDFLAGS = -fsanitize=fuzzer,address,undefined
endif
FUZZ_CPPFLAGS = -I$(top_builddir) -I$(top_srcdir)/src -I$(top_srcdir)/tests/fuzz -include $(top_builddir)/config.h

OBJDIR = $(OUT)/obj
NAMES = $(sort $(basename $(notdir $(wildcard $(top_srcdir)/tests/fuzz/*.c))))
TARGETS = $(addprefix $(OUT)/fuzz-,$(NAMES))
LIB_OBJS = $(patsubst %.c,$(OBJDIR)/%.o,$(filter %.c,$(LIB_FILES)))

all: $(TARGETS)

$(OBJDIR)/%.o: $(top_srcdir)/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

$(OUT)/libdmamask-fuzz.a: $(LIB_OBJS)
	rm -f $@ && ar cr $@ $^

$(OUT)/fuzz-%: $(OBJDIR)/tests/fuzz/%.o $(OUT)/libdmamask-fuzz.a
	$(FUZZ_CC) $(FUZZ_LDFLAGS) $^ $(PKG_LIBS) -o $@

-include $(LIB_OBJS:.o=.d) $(NAMES:%=$(OBJDIR)/tests/fuzz/%.d)
.PHONY: all
.SECONDARY:
