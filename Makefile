# Comet: one entry point for setup, demo, tests, benchmarks and fuzzing.
# On a fresh Debian 12 machine with Swift 6: `make setup && make test`.

SHELL := /bin/bash
SWIFT ?= swift
APT_PACKAGES := libpng-dev libjpeg62-turbo-dev libwebp-dev libgif-dev libavif-dev libheif-dev libjxl-dev liblcms2-dev libcurl4-openssl-dev libssl-dev pkg-config \
	libhiredis-dev redis-server python3-pil libavif-bin colord-data icc-profiles-free libgs-common libheif-examples libjxl-tools
# The colour tests' images and their Little CMS references, made from the corpus photos by
# scripts/colour-fixtures (Pillow, avifenc/avifdec and the ICC profiles of the packages above).
COLOUR_FIXTURES := .build/colour-fixtures
# The HEIC and JPEG XL tests' images and their reference decodes (heif-convert, djxl), made from
# the corpus photos by scripts/heic-jxl-fixtures (libheif-examples, libjxl-tools, Pillow).
HEIC_JXL_FIXTURES := .build/heic-jxl-fixtures
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_TARGETS ?= png-oneshot png-incremental jpeg-oneshot jpeg-incremental jpeg-thumbnail webp-oneshot webp-thumbnail gif avif heic jxl url-path
# The test corpus, found as the tests find it (Tests/Support/TestCorpus.swift): $COMET_CORPUS,
# else .corpus (filled by `make corpus`), else ../shared/corpus.
CORPUS := $(or $(COMET_CORPUS),$(if $(wildcard .corpus/.),.corpus,../shared/corpus))
FUZZ_SEEDS := $(CORPUS)/pngsuite $(CORPUS)/libjpeg-turbo-testimages/derived $(CORPUS)/exif-orientation
# The newer formats are seeded from their own sets only.
FUZZ_SEEDS_webp := $(CORPUS)/webp/libwebp-test-data
FUZZ_SEEDS_gif := $(CORPUS)/gif/image-gif-samples
FUZZ_SEEDS_avif := $(CORPUS)/avif/link-u $(CORPUS)/avif/xiph
# HEIC and JPEG XL: the generated fixtures' files, copied here apart from their reference decodes.
# PNG and JPEG also start from the colour fixtures' files: profiles of every kind, malformed ICC sets.
FUZZ_SEEDS_colour := .build/fuzz-seeds/colour
FUZZ_SEEDS_heic := .build/fuzz-seeds/heic
FUZZ_SEEDS_jxl := .build/fuzz-seeds/jxl

.PHONY: setup colour-fixtures heic-jxl-fixtures demo test test-under-load lint docs loader-test loader-tsan serve serve-test serve-tsan serve-asan corpus tsan asan bench fuzz clean loadtest soak demo-screenshot imgproxy-clients

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

## The whole test suite (what CI runs). Suites that need a missing corpus folder are skipped, and
## listed at the end; with COMET_REQUIRE_CORPUS=1 (CI) they fail instead.
test: setup colour-fixtures heic-jxl-fixtures
	$(SWIFT) build --build-tests
	@set -o pipefail; $(SWIFT) test --skip-build 2>&1 | tee .build/test-output.log
	@scripts/skipped-summary .build/test-output.log
	$(MAKE) loader-test
	$(MAKE) serve-test

## The root, loader and server suites beside two CPU hogs that it starts and stops itself
## (scripts/test-under-load): a test that depends on the machine's speed, or waits on a thread
## the run has starved, fails here. RUNS=3 runs them three times in a row; HOGS=0 gives the same
## runs on the idle machine. Prints each suite's wall time and its test process's peak threads.
## Not in `make test`.
test-under-load: setup colour-fixtures heic-jxl-fixtures
	SWIFT="$(SWIFT)" scripts/test-under-load

## Makes the colour tests' images and references (.build/colour-fixtures; seconds, once).
colour-fixtures:
	@mkdir -p .build
	/usr/bin/python3 scripts/colour-fixtures $(CORPUS) $(COLOUR_FIXTURES)

## Makes the HEIC and JPEG XL tests' images and references (.build/heic-jxl-fixtures; seconds, once).
heic-jxl-fixtures:
	@mkdir -p .build
	/usr/bin/python3 scripts/heic-jxl-fixtures $(CORPUS) $(HEIC_JXL_FIXTURES)

## Checks that all our Swift code is formatted as .swift-format says, with the toolchain's
## `swift format` (a few seconds, no build); any warning fails it. `swift format format -i -r
## <paths>` fixes most warnings (CONTRIBUTING.md). The package manifests are not checked.
LINT_PATHS := Sources Tests Server/Sources Server/Tests Loaders/AsyncHTTPClient/Sources \
	Loaders/AsyncHTTPClient/Tests Migration Benchmarks/Sources Benchmarks/CometBenchmarks Fuzz/Sources
lint:
	$(SWIFT) format lint --strict --parallel --recursive $(LINT_PATHS)

## The DocC catalogs (Imaging, Streams, Comet, CometServer, the migration guide), built with the
## toolchain's docc into .build/docs; a DocC warning fails it (scripts/docs).
docs: setup
	scripts/docs

## The AsyncHTTPClient loader's tests (the nested Loaders/AsyncHTTPClient package: SwiftNIO and
## AsyncHTTPClient; its first build takes about 4 minutes on 2 cores, later ones seconds).
loader-test: setup
	cd Loaders/AsyncHTTPClient && $(SWIFT) build --build-tests
	@mkdir -p .build; set -o pipefail; cd Loaders/AsyncHTTPClient && $(SWIFT) test --skip-build 2>&1 | tee ../../.build/loader-test-output.log

## The AsyncHTTPClient loader's tests under ThreadSanitizer (its own scratch path).
loader-tsan: setup
	cd Loaders/AsyncHTTPClient && $(SWIFT) test --sanitize=thread --scratch-path .build-tsan

## The thumbnail service's tests (the nested Server/ package: Hummingbird, SwiftNIO, AsyncHTTPClient;
## its first build takes about 4 minutes on 2 cores, later ones seconds). One test at a time
## (about 90 s): in parallel, some 600 tests that each start servers and send them requests
## took more than their servers' processing limits to be served on a loaded 2-core machine.
serve-test: setup
	cd Server && $(SWIFT) build --build-tests
	@mkdir -p .build; set -o pipefail; cd Server && $(SWIFT) test --skip-build --no-parallel 2>&1 | tee ../.build/server-test-output.log

## The thumbnail service's tests under ThreadSanitizer, one at a time (its locks are Comet's
## pthread-based `Locking`, which TSan understands; Synchronization's Mutex waits on futexes it
## does not see).
serve-tsan: setup
	cd Server && $(SWIFT) test --sanitize=thread --scratch-path .build-tsan --no-parallel --disable-default-traits

## The LeakSanitizer settings of `make asan` and `make serve-asan`. Full stacks
## (fast_unwind_on_malloc=0): libcurl has no frame pointers, so the fast unwinder stops at its
## first frame, and a suppression could then only name libcurl itself, which would hide a leak of
## Comet's own transfers too. With full stacks, .ci/lsan.supp names the frame that leaks
## (FoundationNetworking's). It costs time: the loading suites run about 3.6 times slower.
SANITIZER_ENV = LSAN_OPTIONS=suppressions=$(CURDIR)/.ci/lsan.supp:print_suppressions=0 \
	ASAN_OPTIONS=fast_unwind_on_malloc=0

## The thumbnail service's tests under AddressSanitizer and LeakSanitizer, one at a time (as
## `make asan`; .ci/lsan.supp lists the toolchain's own leaks). Both sanitizer runs build without
## the OTLPExport trait: swift-otel 1.6 does not compile under --sanitize with Swift 6.3 ("sending
## 'logger' risks causing data races" in its batch log processor).
serve-asan: setup
	cd Server && $(SANITIZER_ENV) $(SWIFT) test --sanitize=address --scratch-path .build-asan --no-parallel --disable-default-traits

## Builds `comet-server` (release) and runs it; SERVE_ARGS replaces the arguments, e.g.
## `make serve SERVE_ARGS='--port 9000 --insecure-unsigned --allow-private-networks'`. It prints
## `comet-server listening on http://HOST:PORT` once it accepts connections; Ctrl-C or SIGTERM
## stops it after the requests in flight.
SERVE_ARGS ?= --demo --port 8080
serve: setup
	cd Server && $(SWIFT) build -c release --product comet-server
	./Server/.build/release/comet-server $(SERVE_ARGS)

## Fetches the test corpus into .corpus (ignored by git) from the public repositories at the
## commits pinned in scripts/corpus-sources.txt, checked against scripts/corpus.sha256. Needs
## internet access to github.com, and libjpeg-turbo-progs for the derived JPEGs.
corpus:
	scripts/fetch-corpus .corpus

## The test suite under ThreadSanitizer, with the random-operations stress test at 12 000
## operations (2 400 in `make test`). One test at a time: under TSan the CPU-heavy decoder tests
## would otherwise hold Swift concurrency's few cooperative threads (one per core) long enough
## to time out the server-based tests around them. Races inside each test are still seen.
tsan: setup
	COMET_STRESS_OPERATIONS=12000 $(SWIFT) test --sanitize=thread --scratch-path .build-tsan --no-parallel

## The test suite under AddressSanitizer and LeakSanitizer; .ci/lsan.supp lists the toolchain's
## own leaks (and nothing of Comet's). One test at a time, as under TSan: in parallel, the whole
## suite under ASan held the cooperative threads long enough for server-based tests to take
## 100 s and time out.
asan: setup
	$(SANITIZER_ENV) $(SWIFT) test --sanitize=address --scratch-path .build-asan --no-parallel

## The benchmark suite (Benchmarks/, ordo-one's package-benchmark, release build in .build-bench):
## each Comet figure beside a reference measured in the same run, printed as a ratio table.
## BENCH_ARGS passes options to `swift package benchmark`, e.g. BENCH_ARGS='--filter "Decode.*"'.
## Measure with the machine otherwise idle (here: `flock /tmp/comet-swift-build.lock make bench`).
BENCH_RESULTS := .build-bench/results/Current_run.influx.csv
BENCH_ARGS ?=
## Then comet-server's cold path against the C loop doing the same work (decode at the covering
## scale, resample, JPEG encode), through scripts/loadtest (release build of Server/, nginx, wrk)
## for BENCH_SERVER_DURATION seconds; BENCH_SERVER=0 skips it.
BENCH_SERVER ?= 1
BENCH_SERVER_DURATION ?= 15
## nginx-light: the origin of the default-configuration loopback figure (its own process).
bench: setup
	@dpkg -s nginx-light libvips42 libvips-dev libvips-tools >/dev/null 2>&1 || { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq nginx-light libvips42 libvips-dev libvips-tools; }
	rm -f $(BENCH_RESULTS)
	cd Benchmarks && $(SWIFT) package --scratch-path ../.build-bench \
		--allow-writing-to-package-directory --allow-writing-to-directory ../.build-bench \
		benchmark --no-progress --format influx --path ../.build-bench/results $(BENCH_ARGS)
	cd Benchmarks && $(SWIFT) build -c release --scratch-path ../.build-bench --product BenchmarkReport
	./.build-bench/release/BenchmarkReport $(BENCH_RESULTS)
	@if [ -d .build-bench/workloads-v1/photo-grain9-1024x768-q85-p3 ]; then \
		echo "== Colour conversion in Pillow + ImageCms and libvips, the same P3 JPEGs (scripts/colour-bench)"; \
		scripts/colour-bench/run .build-bench/workloads-v1; \
	else echo "== Colour references skipped: this run made no P3 workloads (BENCH_ARGS filtered them out)"; fi
	@if [ "$(BENCH_SERVER)" != 0 ]; then \
		echo "== comet-server cold path against the C loop (scripts/loadtest, $(BENCH_SERVER_DURATION) s)"; \
		SWIFT="$(SWIFT)" SERVERS=comet SCENARIOS=cold DURATION=$(BENCH_SERVER_DURATION) \
			LOADTEST_OUT=$(CURDIR)/.build-bench/results/server-cold.md scripts/loadtest/run 2>/dev/null; \
	fi

## comet-server against thumbor 7.8 (PyPI, in a venv under .build-loadtest) under wrk on loopback,
## the same 200 generated JPEGs served by one nginx origin: cold (every URL new) and warm (a Zipf
## mix at 256×256); SCENARIOS=smart,focal adds the production mix (fill, smart or focal gravity,
## sharpen, WebP by Accept; thumbor's smart crop with OpenCV). Prints a Markdown table (also in
## .build-loadtest/results.md). Not in `make test`.
## COMET_SERVER=<command> skips building Server/; DURATION, CONNECTIONS, THREADS,
## THUMBOR_PROCESSES, SCENARIOS and SERVERS tune it (scripts/loadtest/run). Measure idle.
loadtest: setup
	SWIFT="$(SWIFT)" scripts/loadtest/run

## URLs built by imgproxy's URL-builder libraries from PyPI, as their READMEs use them (imgproxy
## 1.0.0, imgproxykit 0.4.0 and imgproxy-python 0.0.2, pinned in venvs under .build-clients;
## imgproxykit needs a Python >= 3.12, PYTHON312=<python> names one), against a release build of
## comet-server on loopback: each must get imgproxy's status, format and size. Prints a Markdown
## table (also in .build-clients/results.md). COMET_SERVER=<binary> skips building Server/.
## Not in `make test`.
imgproxy-clients: setup
	SWIFT="$(SWIFT)" scripts/imgproxy-clients/run

## comet-server under ten minutes of mixed load (cold, warm and bad requests, overload bursts,
## Redis restarted twice, an origin that resets connections), passing only if its resident memory
## stays within +10% after the warm-up and every answer is one its kind of request may get;
## plots the memory into docs/soak-rss.png. DURATION (seconds), WORKERS, COMET_SERVER tune it
## (scripts/soak/run). Not in `make test`.
soak: setup
	SWIFT="$(SWIFT)" scripts/soak/run

## Renders `comet-server --demo`'s page in headless Chromium (Debian's chromium), checks in the
## browser that every image loaded, and saves docs/demo-page.png. COMET_SERVER=<binary> skips
## building Server/.
demo-screenshot: setup
	@command -v chromium >/dev/null || { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }
	@if [ -z "$(COMET_SERVER)" ]; then cd Server && $(SWIFT) build -c release --product comet-server; fi
	scripts/demo-screenshot $(or $(COMET_SERVER),Server/.build/release/comet-server) docs/demo-page.png

## Runs each libFuzzer harness for FUZZ_SECONDS (default 60) with ASan: the eleven decoder targets
## (PNG, JPEG, WebP, GIF, AVIF seeded from the corpus, PNG and JPEG also from the colour
## fixtures; HEIC, JPEG XL from the files
## `make heic-jxl-fixtures` makes from it), then the cache-key target seeded from
## Fuzz/seeds/cache-keys. url-path fuzzes comet-server's request path (signature, grammar, options,
## canonical source and spelling, policy) from Fuzz/seeds/url-path; it links the Server package,
## whose first sanitized build is long. FUZZ_TARGETS='webp-oneshot gif' runs only those targets.
## FUZZ_RUNS=N stops each target after N executions instead (used for the ≥1M runs).
fuzz: setup colour-fixtures heic-jxl-fixtures
	@test -d $(CORPUS)/pngsuite || { echo "fuzz: the seeds come from the test corpus, not found at $(CORPUS) (make corpus)" >&2; exit 1; }
	@# swiftc keeps only the last of several -sanitize= flags (Swift 6.3), and SwiftPM passes one per
	@# --sanitize: without the combined flag after them, Swift code got ASan but no coverage.
	cd Fuzz && $(SWIFT) build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=address,fuzzer \
		--scratch-path ../.build-fuzz
	@for target in $(FUZZ_TARGETS) cache-keys; do \
		mkdir -p Fuzz/corpus-work/$$target Fuzz/artifacts; \
		if [ $$target = cache-keys ]; then binary=CacheKeyFuzzer; seeds=Fuzz/seeds/cache-keys; max_len=8192; extra=; \
		elif [ $$target = url-path ]; then binary=URLPathFuzzer; seeds=Fuzz/seeds/url-path; max_len=4096; \
			extra=-dict=Fuzz/url-path.dict; \
		else binary=DecoderFuzzer; max_len=262144; extra=; case $$target in \
			webp-*) seeds="$(FUZZ_SEEDS_webp)"; max_len=65536; extra=-keep_seed=1;; \
			gif) seeds="$(FUZZ_SEEDS_gif)"; max_len=32768;; \
			avif) seeds="$(FUZZ_SEEDS_avif)"; extra=-keep_seed=1;; \
			heic) seeds="$(FUZZ_SEEDS_heic)"; mkdir -p $$seeds; cp $(HEIC_JXL_FIXTURES)/*.heic $$seeds; extra=-keep_seed=1;; \
			jxl) seeds="$(FUZZ_SEEDS_jxl)"; mkdir -p $$seeds; cp $(HEIC_JXL_FIXTURES)/*.jxl $$seeds; extra=-keep_seed=1;; \
			*) seeds="$(FUZZ_SEEDS) $(FUZZ_SEEDS_colour)"; mkdir -p $(FUZZ_SEEDS_colour); \
				cp $(COLOUR_FIXTURES)/*.jpg $(COLOUR_FIXTURES)/*.png $(COLOUR_FIXTURES)/malformed-icc/*.jpg $(FUZZ_SEEDS_colour);; \
			esac; fi; \
		echo "== fuzzing $$target ($(if $(FUZZ_RUNS),$(FUZZ_RUNS) runs,$(FUZZ_SECONDS)s))"; \
		COMET_FUZZ_TARGET=$$target ./.build-fuzz/release/$$binary Fuzz/corpus-work/$$target $$seeds \
			$(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_SECONDS)) -rss_limit_mb=2048 -max_len=$$max_len $$extra \
			-artifact_prefix=Fuzz/artifacts/$$target- -print_final_stats=1 2>&1 | tail -n 12; \
		[ $${PIPESTATUS[0]} -eq 0 ] || exit 1; \
	done

clean:
	rm -rf .build Server/.build .build-tsan .build-asan .build-bench .build-fuzz Fuzz/corpus-work Fuzz/artifacts
