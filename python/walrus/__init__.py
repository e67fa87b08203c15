"""Walrus from Python: parse BIR, run passes, read programs back.

    import walrus
    module = walrus.parse(open("examples/softmax.mlir").read())
    module.run("walrus-pipeline")
    for program in walrus.programs(module):
        for function in program.functions:
            print(program.name, function.name, function.allocation.peak)

Errors raise walrus.Error: its message is the located errors, and its
`diagnostics` the full list (walrus.Diagnostic: severity, location, file,
line, column, message, notes), including why a pass option was rejected.
Module.diagnostics holds those of the last run that succeeded.
"""
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from ._walrus import Context, Diagnostic, Error, Module  # noqa: F401

__all__ = ["Context", "Diagnostic", "Error", "Module", "parse", "parse_file",
           "import_minimalloc_csv", "programs", "Program", "Function", "Memloc", "Instruction",
           "Allocation", "Node"]

_context = None


def _default_context():
    global _context
    if _context is None:
        _context = Context()
    return _context


def parse(text: str, filename: str = "<string>") -> Module:
    """Parses and verifies BIR text in a shared context."""
    return _default_context().parse(text, filename)


def parse_file(path: str) -> Module:
    with open(path) as source:
        return parse(source.read(), path)


def import_minimalloc_csv(path: str, capacity: int = 0) -> Module:
    """The MiniMalloc CSV problem in `path` as a BIR program to allocate
    (what walrus-translate --import-minimalloc-csv prints, in memory);
    `capacity` is the SBUF bytes per partition, 0 for the sum of the sizes.
    A bad row raises walrus.Error naming its line."""
    with open(path) as source:
        return _default_context().import_minimalloc_csv(source.read(), path, capacity)


@dataclass
class Memloc:
    name: str
    memory: str
    shape: Tuple[int, ...]
    dtype: str
    kind: str
    partitions: int
    bytes_per_partition: int
    address: Optional[int]
    base_partition: Optional[int]


@dataclass
class Instruction:
    op: str
    mask: Optional[str]
    accesses: List[Tuple[str, str, str]]  # (memloc, access pattern, kind)


@dataclass
class Node:
    """One SBUF tensor as the allocator sees it: a rectangle over time."""
    tensor: str
    partitions: int
    bytes: int
    band_class: int
    start: Optional[int]
    end: Optional[int]
    address: Optional[int]
    base_partition: Optional[int]


@dataclass
class Allocation:
    """A function's SBUF allocation (walrus::getAllocation in C++)."""
    function: str            # "@kernel::@nc00::@main"
    nodes: List[Node]
    peak: Optional[int]      # None while a tensor has no place
    lower_bound: int
    spills: int              # tensors sb-alloc moved to DRAM
    partitions: int          # the target's SBUF
    bytes_per_partition: int
    points: int              # program points of the function


@dataclass
class CoreTimeline:
    """One core's estimate on the engine timing model (docs/TimingModel.md)."""
    core: int
    finish_ns: float
    busy_ns: Dict[str, float]   # per engine: PE, ACT, DVE, Pool, DMA
    bound: Optional[str]        # the busiest engine; None for an idle core
    dma_bytes: float
    flops: float
    roofline_ns: float          # max(PE FLOPs / peak of their type, DMA bytes / peak)
    roofline_limit: str         # which: "the PE fp32 peak", "the DMA peak", ...
    barrier_wait_ns: float
    instructions: int           # executed
    critical_path_ns: Dict[str, float]  # per engine, along the critical path
    critical_path_instructions: int


@dataclass
class Function:
    name: str
    memlocs: List[Memloc]
    instructions: List[Instruction]
    allocation: Allocation
    timeline: List[CoreTimeline]  # each core that runs it; empty if untimed


@dataclass
class Program:
    name: Optional[str]
    kernel: Optional[str]    # the bir.kernel it sits in, if any
    core: Optional[int]
    lnc_size: int
    target: str
    functions: List[Function]


def programs(module: Module) -> List[Program]:
    """The programs of a module, wherever its kernels sit: the symbolic
    module of each kernel, or one per core after the split."""
    result = []
    for program in module.programs():
        functions = []
        for function in program["functions"]:
            allocation = dict(function["allocation"])
            allocation["nodes"] = [Node(**node) for node in allocation["nodes"]]
            functions.append(Function(
                name=function["name"],
                memlocs=[Memloc(**memloc) for memloc in function["memlocs"]],
                instructions=[Instruction(**instruction) for instruction in function["instructions"]],
                allocation=Allocation(**allocation),
                timeline=[CoreTimeline(**core) for core in function["timeline"]]))
        result.append(Program(name=program["name"], kernel=program["kernel"],
                              core=program["core"],
                              lnc_size=program["lnc_size"], target=program["target"],
                              functions=functions))
    return result
