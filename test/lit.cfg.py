# -*- Python -*-
import os
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "Walrus"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.walrus_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "walrus-capi-test.c", "lib", "Inputs", "node_modules"]
if config.walrus_enable_capi:
    config.available_features.add("capi")
if config.walrus_sanitizers:
    config.available_features.add("sanitizers")
# Linux's device that fails every write with "no space left on device".
if os.path.exists("/dev/full"):
    config.available_features.add("dev-full")
# A trace viewer to open traces in: `make check-trace-viewer` installs it.
if (os.path.exists(os.environ.get("CHROMIUM", "/usr/bin/chromium")) and
        os.path.isdir(os.path.join(config.test_source_root, "TraceViewer", "node_modules", "speedscope"))):
    config.available_features.add("trace-viewer")

config.substitutions.append(("%examples", os.path.join(config.walrus_src_root, "examples")))
config.substitutions.append(("%utils", os.path.join(config.walrus_src_root, "utils")))
config.substitutions.append(("%walrus_src_root", config.walrus_src_root))
config.substitutions.append(("%walrus_obj_root", config.walrus_obj_root))
# -B: the scripts import their neighbours, and a test writes nothing into
# the source tree.
config.substitutions.append(("%python", sys.executable + " -B"))
config.substitutions.append(("%walrus_opt", os.path.join(config.walrus_tools_dir, "walrus-opt")))
config.substitutions.append(("%walrus_run", os.path.join(config.walrus_tools_dir, "walrus-run")))
config.substitutions.append(("%walrus_tools", config.walrus_tools_dir))

# FileCheck, not and count live in the LLVM tools directory, not on PATH.
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.walrus_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["walrus-opt", "walrus-run", "walrus-lsp-server", "walrus-translate", "walrus-capi-test"],
                                   [config.walrus_tools_dir])
