# tracekit: thin wrapper around CMake. `make demo` runs the main job,
# `make check` runs every test (normal build, then ASan+UBSan build).
PREFIX ?= /usr/local
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# the shared test data the tests read in place (not copied into the tree)
TESTDATA ?= $(abspath ../shared/testdata)

.PHONY: all build deps testdata check check-normal check-asan demo install fuzz bench format clean

all: build

build:
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build build -j $(JOBS)

deps:
	@scripts/install-deps.sh test

check: deps testdata check-normal check-asan

testdata:
	@test -d "$(TESTDATA)" || { echo "make check: no shared test data at $(TESTDATA): clone" \
	  "tracekit beside ../shared, or run make check TESTDATA=/path/to/shared/testdata" >&2; exit 1; }

check-normal:
	cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTK_TESTDATA=$(TESTDATA) $(CMAKE_FLAGS) >/dev/null
	cmake --build build -j $(JOBS)
	cd build && ctest --output-on-failure -j $(JOBS)

check-asan:
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DTK_SANITIZE=ON -DTK_TESTDATA=$(TESTDATA) $(CMAKE_FLAGS) >/dev/null
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

demo:
	@scripts/install-deps.sh demo
	@$(MAKE) --no-print-directory build
	@scripts/demo.sh

# Configured with the prefix, so the pkg-config file names where things go.
install:
	@cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS) >/dev/null
	@cmake --build build -j $(JOBS)
	cmake --install build --prefix $(PREFIX)

# libFuzzer binaries in build-fuzz/bin (see tests/fuzz/README.md).
fuzz:
	CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTK_FUZZ=ON \
	  -DTK_SANITIZE=ON >/dev/null
	cmake --build build-fuzz -j $(JOBS)

bench: build
	@scripts/install-deps.sh bench
	bench/run-all.sh

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build build-asan build-fuzz
