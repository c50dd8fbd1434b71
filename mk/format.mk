# Source formatting: one .clang-format for C, C++ and CUDA (the repository root's).
# `make format` rewrites the tracked sources in place; `make test` runs tests/style/format.sh,
# which fails on any file clang-format would change. variants.def and the generated headers are
# not formatted (an X-macro table reads best as a table).
CLANG_FORMAT ?= clang-format

## format: apply .clang-format to every tracked C, C++ and CUDA source
format: | $(DEPS_STAMP)
	$(Q)tools/format-files.sh | xargs -r $(CLANG_FORMAT) -i
.PHONY: format

TEST_SUITES += "bash tests/style/format.sh"
