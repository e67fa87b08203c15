"""Tests of the walrus Python package (run by `make check`)."""
import json
import os
import subprocess
import sys

import pytest

import walrus

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
EXAMPLES = os.path.join(ROOT, "examples")


def example(name):
    return walrus.parse_file(os.path.join(EXAMPLES, name))


def test_parse_print_round_trip():
    module = example("softmax.mlir")
    text = str(module)
    assert 'bir.memloc "stats" internal : !bir.sbuf<128x2xf32>' in text
    assert str(walrus.parse(text)) == text


def test_parse_error_carries_located_diagnostics():
    with pytest.raises(walrus.Error) as error:
        walrus.parse('bir.func @f {\n  %t = bir.memloc "t" internal : !bir.sbuf<129x4xf32>\n}\n',
                     "bad.mlir")
    assert "bad.mlir:2:8: error: 'bir.memloc' op has 129 partitions but the target's SBUF has 128" \
        in str(error.value)
    [diagnostic] = error.value.diagnostics
    assert (diagnostic.severity, diagnostic.file, diagnostic.line, diagnostic.column) == \
        ("error", "bad.mlir", 2, 8)
    assert diagnostic.location == "bad.mlir:2:8"
    assert diagnostic.message == "'bir.memloc' op has 129 partitions but the target's SBUF has 128"
    assert diagnostic.notes == []


def test_rejected_option_says_why():
    module = example("rmsnorm.mlir")
    with pytest.raises(walrus.Error) as error:
        module.run("sb-alloc{sbuf-bytes=lots}")
    [diagnostic] = error.value.diagnostics
    assert diagnostic.severity == "error"
    assert "'lots' value invalid" in diagnostic.message
    assert "failed to add `sb-alloc` with options `sbuf-bytes=lots`" in diagnostic.message


HOST = """module @host {
  func.func @forward(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
    bir.launch @scale(%x, %y) : memref<4x8xf32>, memref<4x8xf32>
    return
  }
  bir.kernel @scale {
    module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
      bir.func @main {
        %x = bir.memloc "x" input : !bir.dram<4x8xf32>
        %y = bir.memloc "y" output : !bir.dram<4x8xf32>
        %t = bir.memloc "t" internal : !bir.sbuf<2x8xf32>
        bir.dma %t[#bir.ap<0, [[8, 2], [1, 8]]>], %x[#bir.sap<()[s0] -> (s0 * 16), [[8, 2], [1, 8]]>]
          : !bir.sbuf<2x8xf32>, !bir.dram<4x8xf32>
        bir.tensor_scalar multiply %t[#bir.ap<0, [[8, 2], [1, 8]]>], %t[#bir.ap<0, [[8, 2], [1, 8]]>], 2.0
          : !bir.sbuf<2x8xf32>, !bir.sbuf<2x8xf32>
        bir.dma %y[#bir.sap<()[s0] -> (s0 * 16), [[8, 2], [1, 8]]>], %t[#bir.ap<0, [[8, 2], [1, 8]]>]
          : !bir.dram<4x8xf32>, !bir.sbuf<2x8xf32>
      }
    }
  }
}
"""


def test_host_module_with_kernel():
    module = walrus.parse(HOST, "host.mlir")
    module.run("walrus-pipeline")
    assert "func.func @forward" in str(module) and "bir.launch @scale" in str(module)
    cores = walrus.programs(module)
    assert [(p.kernel, p.name, p.core) for p in cores] == [("scale", "nc00", 0), ("scale", "nc01", 1)]
    allocation = cores[1].functions[0].allocation
    assert allocation.function == "@host::@scale::@nc01::@main"
    # 2 partitions x 32 B live at once: spread over 128 partitions, 1 B.
    assert (allocation.peak, allocation.lower_bound, allocation.spills) == (32, 1, 0)
    [node] = allocation.nodes
    assert (node.tensor, node.address, node.base_partition, node.partitions, node.bytes) == \
        ("t", 0, 0, 2, 32)


def test_symbolic_program():
    [program] = walrus.programs(example("rmsnorm.mlir"))
    assert program.name == "nc_symbolic"
    assert program.core is None and program.lnc_size == 2 and program.target == "trn2"
    [function] = program.functions
    xt = next(m for m in function.memlocs if m.name == "xt")
    assert (xt.memory, xt.shape, xt.dtype, xt.kind) == ("sbuf", (128, 1024), "bf16", "internal")
    assert xt.partitions == 128 and xt.bytes_per_partition == 2048 and xt.address is None
    masked = [i for i in function.instructions if i.mask]
    assert len(masked) == 9
    dma = function.instructions[1]
    assert dma.op == "bir.dma"
    assert dma.accesses[1] == ("x", "#bir.sap<()[s0] -> (s0 * 131072), [[1024, 128], [1, 1024]]>", "read")


def test_pipeline_reads_back_per_core_allocation():
    module = example("rmsnorm.mlir")
    module.run("walrus-pipeline")
    cores = walrus.programs(module)
    assert [(p.name, p.core) for p in cores] == [("nc00", 0), ("nc01", 1)]
    for program in cores:
        allocation = program.functions[0].allocation
        assert allocation.peak == allocation.lower_bound == 8196
        for node in allocation.nodes:
            assert node.address is not None and node.base_partition is not None
    # Core 1 lost the masked partial tile.
    assert len(cores[1].functions[0].instructions) == 10


def test_pass_options_and_remarks():
    module = example("rmsnorm.mlir")
    module.run("expand-replication,lnc-split{report},vn-split,shrink-dn,sb-alloc{sbuf-bytes=6200 report}")
    assert any("1 spill(s)" in remark for remark in module.remarks)
    assert any("lnc-split: core 1 of 2 keeps 10 of 19 instructions" in remark
               for remark in module.remarks)


def test_pass_failure_raises():
    module = example("rmsnorm.mlir")
    with pytest.raises(walrus.Error) as error:
        module.run("lnc-split,sb-alloc{sbuf-bytes=1000}")
    assert "is too big for SB, requires 2048 bytes with SB size 1000" in str(error.value)
    with pytest.raises(walrus.Error):
        module.run("no-such-pass")


def test_misnested_pipeline_raises():
    # LLVM aborts the process on a module pass nested in a function; the
    # pipeline says where it belongs instead, and the module stays usable.
    module = example("rmsnorm.mlir")
    for pipeline in ["func.func(walrus-pipeline)",
                     "builtin.module(bir.kernel(walrus-pipeline))",
                     "func.func(walrus-from-linalg{lnc-size=2})"]:
        with pytest.raises(walrus.Error) as error:
            module.run(pipeline)
        assert "runs on a builtin.module, not nested in" in str(error.value)
    module.run("walrus-pipeline")


def test_picture_from_allocation(tmp_path):
    pytest.importorskip("matplotlib")
    import walrus.picture
    module = example("flash-attention.mlir")
    module.run("walrus-pipeline")
    allocation = walrus.programs(module)[0].functions[0].allocation
    picture = tmp_path / "alloc.png"
    walrus.picture.draw(allocation, str(picture))
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_picture_without_matplotlib_says_what_to_install(tmp_path):
    report = tmp_path / "alloc.json"
    report.write_text('{"functions": []}')
    blocked = "import sys; sys.modules['matplotlib'] = None; import runpy; " \
              "runpy.run_module('walrus.picture', run_name='__main__')"
    run = subprocess.run([sys.executable, "-c", blocked, str(report)], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.path.dirname(walrus.__path__[0])})
    assert run.returncode == 1
    assert "walrus.picture needs matplotlib: on Debian, apt-get install python3-matplotlib" in run.stderr


def test_picture_from_report(tmp_path):
    pytest.importorskip("matplotlib")
    report = tmp_path / "alloc.json"
    opt = os.path.join(ROOT, "build", "bin", "walrus-opt")
    subprocess.run([opt, os.path.join(EXAMPLES, "flash-attention.mlir"), "-walrus-pipeline",
                    f"-sb-alloc=report-file={report}", "-o", os.devnull], check=True)
    assert json.loads(report.read_text())["functions"][0]["peak_bytes"] == 16384
    picture = tmp_path / "alloc.png"
    subprocess.run([sys.executable, "-m", "walrus.picture", str(report), "-o", str(picture)],
                   check=True, env={**os.environ, "PYTHONPATH": os.path.dirname(walrus.__path__[0])})
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_from_linalg_layer():
    """A model layer in linalg on tensors, lowered and allocated by one named
    pipeline, read back per core."""
    module = walrus.parse_file(os.path.join(EXAMPLES, "models", "mlp.mlir"))
    module.run("walrus-from-linalg{lnc-size=2}")
    assert "bir.launch @mlp_kernel" in str(module)
    cores = walrus.programs(module)
    assert [(p.kernel, p.core) for p in cores] == [("mlp_kernel", 0), ("mlp_kernel", 1)]
    for program in cores:
        allocation = program.functions[0].allocation
        assert allocation.spills == 0 and allocation.peak >= allocation.lower_bound
    # 72 rows: one partial tile, which one core would run alone; the cores
    # share the columns instead, so both hold tiles.
    assert cores[0].functions[0].allocation.lower_bound > 0
    assert cores[1].functions[0].allocation.lower_bound > 0


def test_unsupported_linalg_names_the_op():
    module = walrus.parse("""
func.func @f(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %l = math.sin %a : f32
    linalg.yield %l : f32
  }
  return
}
""", "f.mlir")
    with pytest.raises(walrus.Error) as error:
        module.run("convert-linalg-to-bir")
    [diagnostic] = [d for d in error.value.diagnostics if d.severity == "error"]
    assert diagnostic.line == 3 and "'math.sin' in its body" in diagnostic.message


def test_hostile_divisor_raises_instead_of_crashing():
    """A mask or pattern dividing by zero is a verifier error, raised as
    walrus.Error: the interpreter is not killed."""
    with pytest.raises(walrus.Error) as error:
        walrus.parse("""
module attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    bir.memset %t[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0 {mask = affine_set<()[s0] : (s0 mod 0 >= 0)>} : !bir.sbuf<128x4xf32>
  }
}
""", "hostile.mlir")
    [diagnostic] = [d for d in error.value.diagnostics if d.severity == "error"]
    assert diagnostic.line == 5 and "mask divides by 0" in diagnostic.message


def test_import_minimalloc_csv_and_allocate(tmp_path):
    """A MiniMalloc problem imported in memory is allocated like any
    program; a bad row raises walrus.Error at its line."""
    problem = tmp_path / "three.csv"
    problem.write_text("id,lower,upper,size\nx,0,3,4\ny,1,2,8\nz,2,5,4\n")
    module = walrus.import_minimalloc_csv(str(problem), capacity=16)
    module.run("sb-alloc")
    [program] = walrus.programs(module)
    placed = {m.name: m.address for m in program.functions[0].memlocs if m.memory == "sbuf"}
    assert sorted(placed) == ["x", "y", "z"]
    # x overlaps y and z in time (y and z do not): x apart from both, y
    # and z may share; 4 + 8 bytes is the lower bound.
    sizes = {"x": 4, "y": 8, "z": 4}
    for other in ("y", "z"):
        assert (placed["x"] + sizes["x"] <= placed[other]
                or placed[other] + sizes[other] <= placed["x"])
    assert program.functions[0].allocation.peak == 12
    bad = tmp_path / "bad.csv"
    bad.write_text("id,lower,upper,size\nx,0,3,4\ny,4,2,8\n")
    with pytest.raises(walrus.Error) as error:
        walrus.import_minimalloc_csv(str(bad))
    [diagnostic] = error.value.diagnostics
    assert diagnostic.line == 3 and "lifetime [4, 2)" in diagnostic.message
    # A path passed where the CSV text goes: an error, not a crash.
    with pytest.raises(walrus.Error) as error:
        walrus.Context().import_minimalloc_csv(str(bad))
    assert "header has no 'id' column" in str(error.value)


def test_deep_nesting_raises_instead_of_overflowing_the_stack():
    """Thousands of nested loops would overflow the parser's stack: the
    text is refused first, at the bracket past the limit."""
    depth = 6000
    text = ("bir.func @main {\n" + "bir.loop 0 to 2 step 1 {\n" * depth
            + "}\n" * depth + "}\n")
    with pytest.raises(walrus.Error) as error:
        walrus.parse(text, "deep.mlir")
    [diagnostic] = error.value.diagnostics
    assert diagnostic.line == 513 and "nested deeper than 512" in diagnostic.message


ROWS = """
bir.func @main {
  %y = bir.memloc "y" output : !bir.dram<32x32xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<128x32xf32>
  %q = bir.memloc "q" internal : !bir.sbuf<32x32xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  %out = bir.memloc "out" internal : !bir.sbuf<32x32xf32>
  bir.memset %w[#bir.ap<0, [[32, 128], [1, 32]]>], 1.0 : !bir.sbuf<128x32xf32>
  bir.memset %q[#bir.ap<0, [[32, 32], [1, 32]]>], 2.0 : !bir.sbuf<32x32xf32>
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<2048, [[32, 32], [1, 32]]>], %q[#bir.ap<0, [[32, 32], [1, 32]]>] start stop : !bir.psum<32x32xf32>, !bir.sbuf<128x32xf32>, !bir.sbuf<32x32xf32>
  bir.tensor_copy %out[#bir.ap<0, [[32, 32], [1, 32]]>], %acc[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.sbuf<32x32xf32>, !bir.psum<32x32xf32>
  bir.dma %y[#bir.ap<0, [[32, 32], [1, 32]]>], %out[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.dram<32x32xf32>, !bir.sbuf<32x32xf32>
}
"""


def test_allocation_reports_matmult_row_bands():
    # 'q' meets rows 64-95 of 'w' on the tensor engine: it gets the third
    # quarter (band class 3); 'out' keeps a free quarter (0).
    module = walrus.parse(ROWS, "rows.mlir")
    module.run("sb-alloc,sb-alloc-verify")
    [program] = walrus.programs(module)
    nodes = {node.tensor: node for node in program.functions[0].allocation.nodes}
    assert (nodes["q"].band_class, nodes["q"].base_partition) == (3, 64)
    assert (nodes["w"].band_class, nodes["w"].base_partition) == (8, 0)
    assert nodes["out"].band_class == 0


SCRATCH = """
bir.func @main {
  %y = bir.memloc "y" output : !bir.dram<128x64xf32>
  %d = bir.memloc "d" internal : !bir.dram<128x64xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x64xf32>
  bir.memset %t[#bir.ap<0, [[64, 128], [1, 64]]>], 3.0 : !bir.sbuf<128x64xf32>
  bir.dma %d[#bir.ap<0, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.sbuf<128x64xf32>
  bir.dma %t[#bir.ap<0, [[64, 128], [1, 64]]>], %d[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.sbuf<128x64xf32>, !bir.dram<128x64xf32>
  bir.dma %y[#bir.ap<0, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.sbuf<128x64xf32>
}
"""


def test_dram_scratch_moves_into_sbuf_within_budget():
    # 'd' (256 B per partition) moves into SBUF only with a budget that
    # holds it: vn-split's dram-to-sb-bytes, through a pass pipeline string.
    for budget, memory in ((0, "dram"), (255, "dram"), (256, "sbuf")):
        module = walrus.parse(SCRATCH, "scratch.mlir")
        module.run(f"vn-split{{dram-to-sb-bytes={budget}}}")
        [program] = walrus.programs(module)
        memlocs = {m.name: m.memory for m in program.functions[0].memlocs}
        assert memlocs["d"] == memory


def test_frontend_module_with_seed_global_and_assert():
    # torch-mlir's form: a seed global nothing reads and a static bounds
    # check, around the linalg; both parse, and the lowering drops them.
    module = walrus.parse("""\
module {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @main(%arg0: tensor<128x64xf32>) -> tensor<128x64xf32> {
    %c = arith.constant true
    cf.assert %c, "checked"
    %0 = tensor.empty() : tensor<128x64xf32>
    %1 = linalg.copy ins(%arg0 : tensor<128x64xf32>) outs(%0 : tensor<128x64xf32>) -> tensor<128x64xf32>
    return %1 : tensor<128x64xf32>
  }
}
""")
    module.run("walrus-from-linalg")
    text = str(module)
    assert "ml_program.global" not in text and "cf.assert" not in text
    assert "bir.launch @main_kernel" in text


def test_function_timeline():
    """function.timeline: each core's estimate on the timing model, the
    numbers docs/TimingModel.md gives: one 166.667 ns DVE op on trn2."""
    module = walrus.parse("""
module @nc_symbolic attributes {bir.lnc_size = 2 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x100xf32>
    bir.tensor_scalar multiply %t[#bir.ap<0, [[100, 128], [1, 100]]>], %t[#bir.ap<0, [[100, 128], [1, 100]]>], 2.0 : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
  }
}
""", "t.mlir")
    [program] = walrus.programs(module)
    [function] = program.functions
    assert [core.core for core in function.timeline] == [0, 1]
    core = function.timeline[0]
    assert abs(core.finish_ns - 166.6667) < 1e-3
    assert core.bound == "DVE" and core.instructions == 1
    assert abs(core.busy_ns["DVE"] - core.finish_ns) < 1e-9 and core.busy_ns["PE"] == 0
    assert core.critical_path_instructions == 1
    assert abs(core.critical_path_ns["DVE"] - core.finish_ns) < 1e-9
    assert core.critical_path_ns["DMA latency"] == 0
    # No tensor-engine FLOPs and no DMA bytes: nothing bounds the roofline.
    assert core.roofline_ns == 0 and core.roofline_limit == "nothing"


def test_timeline_picture(tmp_path):
    """walrus.timeline_picture draws a trace of -print-bir-timeline."""
    matplotlib = pytest.importorskip("matplotlib")  # noqa: F841
    import walrus.timeline_picture
    trace = {"traceEvents": [
        {"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "core 0"}},
        {"name": "thread_name", "ph": "M", "pid": 0, "tid": 2, "args": {"name": "DVE"}},
        {"name": "bir.tensor_copy", "ph": "X", "pid": 0, "tid": 2, "ts": 0.0, "dur": 0.5,
         "args": {"loc": "t.mlir:3:5"}}]}
    output = tmp_path / "timeline.png"
    walrus.timeline_picture.draw(trace, str(output))
    assert output.stat().st_size > 0
    with pytest.raises(ValueError):
        walrus.timeline_picture.draw({"traceEvents": []}, str(output))
