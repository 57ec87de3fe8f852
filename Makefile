# Comet: one entry point for setup, demo, tests, benchmarks and fuzzing.
# On a fresh Debian 12 machine with Swift 6: `make setup && make test`.

SWIFT ?= swift
APT_PACKAGES := libpng-dev libjpeg62-turbo-dev pkg-config
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := png-oneshot png-incremental jpeg-oneshot jpeg-incremental jpeg-thumbnail
FUZZ_SEEDS := ../shared/corpus/pngsuite ../shared/corpus/libjpeg-turbo-testimages/derived ../shared/corpus/exif-orientation

.PHONY: setup demo test tsan asan bench fuzz clean

## Installs the system libraries (idempotent; needs root or sudo).
setup:
	@if dpkg -s $(APT_PACKAGES) >/dev/null 2>&1; then \
		echo "setup: $(APT_PACKAGES) already installed"; \
	else \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $(APT_PACKAGES); \
	fi

## Builds the `comet` tool and runs its demo: a generated gallery served on 127.0.0.1, loaded as
## thumbnails through the pipeline (network, memory cache, disk cache), written to .build/demo.
demo: setup
	$(SWIFT) build -c release --product comet
	./.build/release/comet demo --out .build/demo

## The whole test suite (what CI runs).
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## The test suite under ThreadSanitizer.
tsan: setup
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan

## The test suite under AddressSanitizer (and LeakSanitizer).
asan: setup
	LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp $(SWIFT) test --sanitize=address --scratch-path .build-asan

## Decoder benchmarks against plain C libjpeg-turbo/libpng loops (release build).
bench: setup
	cd Benchmarks && $(SWIFT) run -c release --scratch-path ../.build-bench CometBenchmarks

## Runs each libFuzzer harness for FUZZ_SECONDS (default 60) with ASan, seeded from the corpus.
fuzz: setup
	cd Fuzz && $(SWIFT) build -c release --sanitize=fuzzer --sanitize=address --scratch-path ../.build-fuzz
	@for target in $(FUZZ_TARGETS); do \
		mkdir -p Fuzz/corpus-work/$$target Fuzz/artifacts; \
		echo "== fuzzing $$target for $(FUZZ_SECONDS)s"; \
		COMET_FUZZ_TARGET=$$target ./.build-fuzz/release/DecoderFuzzer Fuzz/corpus-work/$$target $(FUZZ_SEEDS) \
			-max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -max_len=262144 \
			-artifact_prefix=Fuzz/artifacts/$$target- -print_final_stats=1 2>&1 | tail -n 12 || exit 1; \
	done

clean:
	rm -rf .build .build-tsan .build-asan .build-bench .build-fuzz Fuzz/corpus-work Fuzz/artifacts
