# The two commands of the README: `make demo` and `make check`. Both install
# what is missing (Debian packages) and build incrementally first.
.PHONY: setup build demo check docs clean check-sanitizers check-tsan fuzz random check-trace-viewer

setup:
	@scripts/setup.sh

build: setup
	@scripts/build.sh

demo: build
	@scripts/demo.sh

check: build
	@scripts/check.sh

docs: build
	@scripts/build.sh walrus-doc

clean:
	rm -rf build build-asan build-fuzz

check-sanitizers: setup
	@scripts/check-sanitizers.sh

check-tsan: setup
	@scripts/check-tsan.sh

fuzz: setup
	@scripts/fuzz.sh

random: build
	@python3 utils/random_check.py --count $${COUNT:-2000}

# A real trace viewer (speedscope in Debian's headless Chromium) opening a
# real layer's trace: installs both when missing, then runs its test.
check-trace-viewer: build
	@scripts/check-trace-viewer.sh
