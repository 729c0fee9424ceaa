# hotsim - cycle-level simulator for the arm64 Linux kernel's hottest paths.
#
#   make          build ./hotsim
#   make test     the fast tier: every test that needs no real kernel (< 1 minute)
#   make check    install what is missing, build, build the real kernels and fetch
#                 Debian's, run every test, then the same tests under ASan+UBSan
#   make demo     install, build, build the real 7.2 kernel pairs, run hotsim on them
#   make bench    throughput / latency benchmark (not a test)
#   make fuzz     libFuzzer run over the image parsers (FUZZ_SECONDS=N)
#   make install  hotsim, hotsim-pair, hotsim-series, hotsim(1), bash completion (PREFIX, DESTDIR)

CC      ?= gcc
CSTD    := -std=c11 -D_GNU_SOURCE
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
OPT     ?= -O2 -g
PKGS    := unicorn capstone libelf
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CFLAGS_ALL = $(CSTD) $(WARN) $(OPT) -Iinclude -Isim $(PKG_CFLAGS) $(VERSION_CFLAGS) $(EXTRA_CFLAGS)
LDLIBS_ALL = $(PKG_LIBS) -lm

# The version `hotsim --version` names: this, plus `git describe --always
# --dirty` when built in hotsim's own git checkout.
HOTSIM_VERSION := 0.1
GIT_DESCRIBE := $(shell [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ] && \
		    git describe --always --dirty 2>/dev/null)
HOTSIM_FULL_VERSION := $(HOTSIM_VERSION)$(if $(GIT_DESCRIBE), (git $(GIT_DESCRIBE)))

# make install
PREFIX  ?= /usr/local
DESTDIR ?=

# Build flavours share the sources and differ in output dir and flags.
BUILD   ?= build
SAN     ?=
ifeq ($(SAN),1)
BUILD   := build-san
OPT     := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
EXTRA_LDFLAGS := -fsanitize=address,undefined
endif

LIB_SRCS  := $(sort $(wildcard sim/*/*.c models/*.c kernels/paths/*.c))
CLI_SRCS  := $(sort $(wildcard cli/*.c))
TEST_SRCS := $(sort $(wildcard tests/test_*.c))
.SECONDARY: $(BUILD)/obj/tests/extra_registry.o

LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/sim/vm/workload_blob.o \
	     $(BUILD)/obj/sim/vm/plugin_blob.o $(BUILD)/obj/sim/vm/program_blob.o \
	     $(BUILD)/obj/sim/vm/taskset_blob.o $(BUILD)/obj/sim/vm/cgroup_blob.o
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
TESTS     := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
LIB       := $(BUILD)/libhotsim.a

.SECONDARY: $(TEST_SRCS:tests/%.c=$(BUILD)/obj/tests/%.o) $(BUILD)/obj/tests/fuzz/fuzz_image.o

.PHONY: all test test-suites lint check check-tests check-san demo bench fuzz deps kernels fixtures clean distclean \
	install uninstall FORCE
.DELETE_ON_ERROR:
# keep test objects (pattern-rule intermediates) between runs; only those:
# a bare .SECONDARY would also let make skip building a missing binary

all: hotsim

ifeq ($(SAN),1)
# the sanitizer build's binary stays in build-san/ (./hotsim is the normal one)
.PHONY: hotsim
hotsim: $(BUILD)/hotsim
else
hotsim: $(BUILD)/hotsim
	@cp $< $@.tmp && mv $@.tmp $@
endif

$(BUILD)/hotsim: $(CLI_OBJS) $(LIB)
	@echo "  LD      $@"
	@# linked aside and renamed: a test may be running the old one
	@$(CC) $(EXTRA_LDFLAGS) -o $@.$$$$ $(CLI_OBJS) $(LIB) $(LDLIBS_ALL) && mv $@.$$$$ $@

# A copy of the CLI with a throwaway core and path in its registries
# (tests/extra_registry.c), the path's user side in its workload: test_cli
# and test_booted check they appear everywhere.
$(BUILD)/hotsim-extra: $(CLI_OBJS) $(BUILD)/obj/tests/extra_registry.o $(BUILD)/obj/tests/workload_blob_extra.o \
		       $(LIB)
	@echo "  LD      $@"
	@$(CC) $(EXTRA_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(LDLIBS_ALL)

$(LIB): $(LIB_OBJS)
	@rm -f $@
	@ar rcs $@ $^

# The cost models run once per traced instruction (hundreds of millions a
# compare): -O3 there, measured 4-8% more model throughput in `make
# bench`; everything else -O2. The sanitizer build keeps its own OPT.
ifneq ($(SAN),1)
$(BUILD)/obj/models/%.o: OPT := $(OPT) -O3
endif

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS_ALL) -MMD -MP -c -o $@ $<

# The workload a booted kernel runs (booted state): a static aarch64
# program, init.c and the user side of every booted path - the part of
# the path's own file under HS_USER_SIDE (kernels/workload/user_op.h) -
# embedded in hotsim by workload_blob.S. Linked at 256 MiB, away from the
# 4 MiB where a user's own static program (--workload, /user) is: the boot
# stops at a user marker by its address, and /init, which starts /user,
# must never execute the same address.
CROSS_CC ?= aarch64-linux-gnu-gcc
USER_SIDES := $(shell grep -l '^\#ifdef HS_USER_SIDE' kernels/paths/*.c)
WORKLOAD_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -static -Wl,--build-id=none \
		   -Wl,-Ttext-segment=0x10000000 -DHS_USER_SIDE -Ikernels/workload
# Without the cross compiler hotsim still builds, with no workload: every
# image then runs on synthesized state, and says why.
define workload_rule
	@mkdir -p $(dir $@)
	@echo "  CROSS   $@"
	@if command -v $(CROSS_CC) >/dev/null; then \
		$(CROSS_CC) $(WORKLOAD_CFLAGS) -o $@ $(filter %.c,$^); \
	else echo "  (no $(CROSS_CC): hotsim is built without its boot workload)"; : > $@; fi
endef
$(BUILD)/workload/init: kernels/workload/init.c $(USER_SIDES) kernels/workload/user_op.h Makefile
	$(workload_rule)
# The boot's static helpers, each linked at $(1), away from the others'
# addresses (an empty file without the cross compiler: hotsim then says
# so where one is needed).
define helper_rule
	@mkdir -p $(dir $@)
	@echo "  CROSS   $@"
	@if command -v $(CROSS_CC) >/dev/null; then \
		$(CROSS_CC) -std=gnu11 -O2 -Wall -Wextra -Werror -static -Wl,--build-id=none \
			-Wl,-Ttext-segment=$(1) -o $@ $<; \
	else : > $@; fi
endef
# /user of a boot that runs a Debian program (kernels/programs/): the
# runner that starts it and says where its library is mapped, at 4 MiB as
# a user's workload is; embedded by program_blob.S.
$(BUILD)/workload/program: kernels/workload/program.c Makefile
	$(call helper_rule,0x400000)
# /taskset of a pinned boot (--taskset): pins itself, then executes /init;
# at 512 MiB, away from /init's and /user's addresses; embedded by
# taskset_blob.S.
$(BUILD)/workload/taskset: kernels/workload/taskset.c Makefile
	$(call helper_rule,0x20000000)
# /cgroup of a boot in a cgroup (--cgroup): moves itself there, then
# executes /taskset or /init; at 768 MiB; embedded by cgroup_blob.S.
$(BUILD)/workload/cgroup: kernels/workload/cgroup.c Makefile
	$(call helper_rule,0x30000000)
# hotsim-extra's: the same with the throwaway path's user side
$(BUILD)/workload/init-extra: kernels/workload/init.c $(USER_SIDES) tests/extra_registry.c \
			      kernels/workload/user_op.h Makefile
	$(workload_rule)

# The QEMU plugin validation records IRQ streams with, against the
# installed QEMU's own plugin header (from Debian's source package); without
# QEMU hotsim builds without it.
# The plugin follows the installed QEMU: its version is a stamp rewritten
# only when it changes (installed, upgraded, removed), so `make` after
# `apt-get install qemu-system-arm` builds the plugin that was missing.
QEMU_PKG ?= qemu-system-arm
QEMU_INSTALLED := $(shell dpkg-query -W -f='$${Status} $${Version}' $(QEMU_PKG) 2>/dev/null | \
		    sed -n 's/^install ok installed //p')
$(BUILD)/gen/qemu_version: FORCE
	@mkdir -p $(dir $@)
	@echo '$(QEMU_PKG) $(QEMU_INSTALLED)' > $@.$$$$; \
	 if cmp -s $@.$$$$ $@; then rm -f $@.$$$$; else mv $@.$$$$ $@; fi

$(BUILD)/qemu/record_plugin.so: kernels/qemu/record_plugin.c kernels/qemu/plugin-header.sh \
				$(BUILD)/gen/qemu_version
	@mkdir -p $(dir $@)
	@echo "  PLUGIN  $<"
	@rm -f $(BUILD)/qemu/qemu-plugin.h
	@if HOTSIM_QEMU_PKG=$(QEMU_PKG) kernels/qemu/plugin-header.sh $(BUILD)/qemu; then \
		$(CC) -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -I$(BUILD)/qemu -o $@ $<; \
	else echo "  (no QEMU plugin header: hotsim validate cannot check the IRQ paths)"; : > $@; fi

$(BUILD)/obj/sim/vm/plugin_blob.o: sim/vm/plugin_blob.S $(BUILD)/qemu/record_plugin.so
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) -c -DHS_PLUGIN='"$(BUILD)/qemu/record_plugin.so"' -o $@ $<

$(BUILD)/obj/sim/vm/workload_blob.o: sim/vm/workload_blob.S $(BUILD)/workload/init
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) -c -DHS_WORKLOAD='"$(BUILD)/workload/init"' -o $@ $<
$(BUILD)/obj/sim/vm/program_blob.o: sim/vm/program_blob.S $(BUILD)/workload/program
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) -c -DHS_RUNNER='"$(BUILD)/workload/program"' -o $@ $<
$(BUILD)/obj/sim/vm/taskset_blob.o: sim/vm/taskset_blob.S $(BUILD)/workload/taskset
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) -c -DHS_TASKSET='"$(BUILD)/workload/taskset"' -o $@ $<
$(BUILD)/obj/sim/vm/cgroup_blob.o: sim/vm/cgroup_blob.S $(BUILD)/workload/cgroup
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) -c -DHS_CGROUP='"$(BUILD)/workload/cgroup"' -o $@ $<
# linked before the library, it is the one hotsim-extra embeds (the
# library's own blob is then never pulled in)
$(BUILD)/obj/tests/workload_blob_extra.o: sim/vm/workload_blob.S $(BUILD)/workload/init-extra
	@mkdir -p $(dir $@)
	@echo "  AS      $@"
	@$(CC) -c -DHS_WORKLOAD='"$(BUILD)/workload/init-extra"' -o $@ $<

# Rewritten only when the version changes (a commit, a dirty tree), so an
# unchanged checkout does not relink.
$(BUILD)/gen/hotsim_version.h: FORCE
	@mkdir -p $(dir $@)
	@echo '#define HOTSIM_VERSION "$(HOTSIM_FULL_VERSION)"' > $@.$$$$; \
	 if cmp -s $@.$$$$ $@; then rm -f $@.$$$$; else mv $@.$$$$ $@; fi
$(BUILD)/obj/cli/version.o: $(BUILD)/gen/hotsim_version.h
$(BUILD)/obj/cli/version.o: VERSION_CFLAGS = -I$(BUILD)/gen

# The fuzz regression test links the fuzz target's entry point.
$(BUILD)/tests/test_fuzz_regress: $(BUILD)/obj/tests/fuzz/fuzz_image.o
# The picture test draws the compare SVG with the CLI's own files from a
# comparison it builds (no kernel), and reads the rendered PNG with zlib.
$(BUILD)/tests/test_svg: $(addprefix $(BUILD)/obj/cli/,report_svg.o report_svg_forest.o report_svg_move.o \
							 report_svg_bars.o)
$(BUILD)/tests/test_svg: LDLIBS_ALL += -lz

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(LIB)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(EXTRA_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(LDLIBS_ALL) -lcriterion

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(TEST_SRCS:tests/%.c=$(BUILD)/obj/tests/%.d) \
	$(BUILD)/obj/tests/extra_registry.d

# --- install -----------------------------------------------------------------

# The manual page and the completion are written by hotsim from its option
# tables; hotsim-pair and hotsim-series read the kernel recipe, the pair
# cache's shell and hotsim's fragments from share/hotsim.
# (written aside and renamed: tests install from parallel processes)
$(BUILD)/hotsim.1: $(BUILD)/hotsim
	@$< help --man > $@.$$$$ && mv $@.$$$$ $@
$(BUILD)/hotsim.bash: $(BUILD)/hotsim
	@$< help --bash-completion > $@.$$$$ && mv $@.$$$$ $@

BINDIR   = $(DESTDIR)$(PREFIX)/bin
MAN1DIR  = $(DESTDIR)$(PREFIX)/share/man/man1
COMPDIR  = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
SHAREDIR = $(DESTDIR)$(PREFIX)/share/hotsim
INCDIR   = $(DESTDIR)$(PREFIX)/include/hotsim

install: $(BUILD)/hotsim $(BUILD)/hotsim.1 $(BUILD)/hotsim.bash
	@install -d $(BINDIR) $(MAN1DIR) $(COMPDIR) $(SHAREDIR) $(INCDIR)
	@install -m 755 $(BUILD)/hotsim $(BINDIR)/hotsim
	@install -m 755 scripts/hotsim-pair $(BINDIR)/hotsim-pair
	@install -m 755 scripts/hotsim-series $(BINDIR)/hotsim-series
	@install -m 644 $(BUILD)/hotsim.1 $(MAN1DIR)/hotsim.1
	@install -m 644 $(BUILD)/hotsim.bash $(COMPDIR)/hotsim
	@ln -sf hotsim $(COMPDIR)/hotsim-pair
	@install -m 644 kernels/linux/recipe.sh kernels/linux/pair-cache.sh kernels/linux/series-list.sh \
		kernels/linux/series-build.sh kernels/linux/*.config $(SHAREDIR)/
	@install -m 644 include/hotsim/workload.h $(INCDIR)/workload.h
	@echo "installed hotsim, hotsim-pair, hotsim-series, hotsim(1), the bash completion and <hotsim/workload.h> under $(DESTDIR)$(PREFIX)"

uninstall:
	rm -f $(BINDIR)/hotsim $(BINDIR)/hotsim-pair $(BINDIR)/hotsim-series $(MAN1DIR)/hotsim.1 $(COMPDIR)/hotsim $(COMPDIR)/hotsim-pair
	rm -rf $(SHAREDIR)
	rm -f $(INCDIR)/workload.h
	-rmdir $(INCDIR) 2>/dev/null

# --- dependencies and inputs -------------------------------------------------

deps:
	@scripts/deps.sh

# Real arm64 kernels from Debian's linux-source-<line> packages, Debian's
# own arm64 kernels and the Debian programs hotsim boots (perf), cached
# outside the checkout; build/kernels/ and build/programs/ get symlinks.
# The Debian downloads (3 GB, network-bound) run beside the builds
# (CPU-bound); their log is shown when both are done.
kernels: deps
	@mkdir -p build; log=build/debian-fetch.log; \
	 { kernels/debian/fetch.sh && kernels/programs/fetch.sh; } > $$log 2>&1 & fetch=$$!; \
	 kernels/linux/build.sh check; rc=$$?; \
	 wait $$fetch; frc=$$?; cat $$log; \
	 [ $$rc -eq 0 ] && [ $$frc -eq 0 ]

# Small arm64 fixtures the unit tests run (assembly and C, cross-compiled).
fixtures:
	@$(MAKE) -s -C kernels/fixtures

# --- tests --------------------------------------------------------------------

check: deps
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory kernels
	@$(MAKE) --no-print-directory check-tests
	@$(MAKE) --no-print-directory SAN=1 check-san
	@scripts/valgrind.sh
	@FUZZ_SECONDS=$${FUZZ_SECONDS:-15} scripts/fuzz.sh

# HOTSIM_KERNELS: "need" fails a test whose real kernel is missing, "skip"
# skips every such test (tests/testutil.h).
check-tests: hotsim fixtures $(TESTS) $(BUILD)/hotsim-extra
	@HOTSIM_KERNELS=need scripts/run-tests.sh $(BUILD) $(TESTS)

# The sanitizer pass: every suite (the real-kernel tests skipped, as in
# make test), then the sanitized hotsim over the real images
# (scripts/san-kernels.sh says which, and why not every test again).
check-san: hotsim fixtures $(TESTS) $(BUILD)/hotsim-extra
	@HOTSIM_KERNELS=skip scripts/run-tests.sh $(BUILD) $(TESTS)
	@scripts/san-kernels.sh $(BUILD)

# The suites that need no real kernel: installing what is missing first,
# as check does, so a fresh machine can start here.
test: deps
	@$(MAKE) --no-print-directory test-suites

test-suites: hotsim fixtures $(TESTS) $(BUILD)/hotsim-extra lint
	@HOTSIM_KERNELS=skip scripts/run-tests.sh $(BUILD) $(TESTS)

# The dependency rule between the layers (docs/how-it-works.md), nothing built
# tracked in git, no function over 80 lines anywhere (named phases,
# tables), every file's header naming the file, and every link in the
# documents leading to its file and heading.
LINT_C = $(sort $(wildcard sim/*/*.[ch] models/*.[ch] cli/*.[ch] kernels/paths/*.[ch] include/hotsim/*.h \
		tests/*.[ch] tests/*/*.[ch] kernels/qemu/*.c kernels/workload/*.[ch]))
lint: $(LIB_OBJS) $(CLI_OBJS)
	@scripts/check-layers.sh $(LIB_OBJS) $(CLI_OBJS)
	@scripts/check-tracked.sh
	@long=$$(scripts/func-lengths.sh $(filter %.c,$(LINT_C))); \
	 if [ -n "$$long" ]; then echo "$$long" >&2; echo "lint: functions over 80 lines" >&2; exit 1; fi; \
	 echo "lint: no function over 80 lines"
	@scripts/file-headers.sh $(LINT_C) >&2 || { echo "lint: file headers that do not name their file" >&2; exit 1; }
	@scripts/check-links

# The demo needs only the 7.2 baseline and the seed pairs (minutes, once).
demo: deps
	@$(MAKE) --no-print-directory hotsim
	@kernels/linux/build.sh demo
	@scripts/demo.sh

fuzz: deps fixtures
	@scripts/fuzz.sh

bench: deps
	@$(MAKE) --no-print-directory hotsim kernels
	@scripts/bench.sh

clean:
	rm -rf build build-san hotsim
	@$(MAKE) -s -C kernels/fixtures clean

distclean: clean
	@echo "kernel cache kept in $${HOTSIM_CACHE:-$$HOME/.cache/hotsim} (rm -rf it by hand)"
