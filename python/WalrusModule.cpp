//===- WalrusModule.cpp - Python bindings of Walrus -----------------------===//
//
// A small, stable surface over the C++ API: parse, print, run passes or the
// pipeline, and read back programs, tensors, instructions and allocations
// as plain Python data. Errors raise walrus.Error with the MLIR diagnostics.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/Allocation.h"
#include "Walrus/Analysis/Timeline.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Dialect/BIR/IR/SourceLimits.h"
#include "Walrus/Pipelines/Pipelines.h"
#include "Walrus/Target/MiniMalloc.h"
#include "Walrus/Transforms/Passes.h"
#include "Walrus/Walrus.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "Diagnostics.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>

namespace py = pybind11;
using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::python;

namespace {
/// An MLIR context with the bir dialect loaded.
struct Context {
  Context() {
    static std::once_flag registered;
    std::call_once(registered, [] {
      registerWalrusPasses();
      registerWalrusConversionPasses();
      registerWalrusPipelines();
    });
    DialectRegistry registry;
    registerWalrusDialects(registry);
    registerHostDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadAllAvailableDialects();
    // Diagnostics are data here: no dump of the op under each one.
    context->printOpOnDiagnostic(false);
  }
  std::unique_ptr<MLIRContext> context;
};

/// A parsed module; keeps its context alive.
struct Module {
  std::shared_ptr<Context> context;
  OwningOpRef<ModuleOp> module;
  std::vector<std::string> remarks;
  std::vector<DiagnosticRecord> lastDiagnostics;

  std::string str() {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return text;
  }

  /// Runs a pass pipeline ("lnc-split,vn-split" or "walrus-pipeline{...}").
  void run(const std::string &pipeline) {
    DiagnosticCollector diagnostics(*context->context);
    StringRef inner = StringRef(pipeline).trim();
    if (inner.consume_front("builtin.module(") && !inner.consume_back(")"))
      throw WalrusError("unbalanced pipeline '" + pipeline + "'");
    PassManager pm(context->context.get());
    std::string error;
    llvm::raw_string_ostream errorStream(error);
    // LLVM's option parser says why it rejects an option on stderr only.
    StderrCapture optionErrors;
    LogicalResult parsed = parsePassPipeline(inner, pm, errorStream);
    std::string why = StringRef(optionErrors.finish()).trim().str();
    // LLVM prefixes the program name, which a library has not got.
    StringRef reason = StringRef(why).ltrim(": ");
    if (failed(parsed)) {
      DiagnosticRecord record;
      record.severity = "error";
      record.location = "pipeline";
      record.message = (reason.empty() ? "" : reason.str() + "; ") +
                       StringRef(error).trim().str();
      throw WalrusError("bad pipeline '" + pipeline + "': " + record.message,
                        {record});
    }
    bool ok = succeeded(pm.run(*module));
    remarks.clear();
    for (const DiagnosticRecord &record : diagnostics.getRecords())
      remarks.push_back(record.str());
    lastDiagnostics = diagnostics.getRecords();
    if (!ok)
      raise(diagnostics);
  }

  py::list programs();
};

std::string patternText(Attribute pattern) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << pattern;
  return text;
}

py::dict memlocData(MemlocOp memloc) {
  MemoryType type = memloc.getMemoryType();
  py::dict data;
  data["name"] = memloc.getName().str();
  data["memory"] = stringifyMemorySpace(type.getMemorySpace()).str();
  data["shape"] = py::tuple(py::cast(
      std::vector<int64_t>(type.getShape().begin(), type.getShape().end())));
  std::string dtype;
  llvm::raw_string_ostream os(dtype);
  os << type.getElementType();
  data["dtype"] = dtype;
  data["kind"] = stringifyTensorKind(memloc.getKind()).str();
  data["partitions"] = type.isOnChip() ? type.getPartitions() : 0;
  data["bytes_per_partition"] =
      type.isOnChip() ? type.getBytesPerPartition() : 0;
  data["address"] = memloc.getAddress()
                        ? py::cast(int64_t(*memloc.getAddress()))
                        : py::none();
  data["base_partition"] = memloc.getBasePartition()
                               ? py::cast(int64_t(*memloc.getBasePartition()))
                               : py::none();
  return data;
}

py::dict instructionData(InstructionOpInterface instruction) {
  py::dict data;
  data["op"] = instruction->getName().getStringRef().str();
  data["mask"] = instruction.getMaskAttr()
                     ? py::cast(patternText(instruction.getMaskAttr()))
                     : py::none();
  py::list accesses;
  SmallVector<Access> list;
  instruction.getAccesses(list);
  for (const Access &access : list) {
    const char *kind = access.kind == AccessKind::Read    ? "read"
                       : access.kind == AccessKind::Write ? "write"
                                                          : "readwrite";
    accesses.append(
        py::make_tuple(getDefiningMemloc(access.getMemloc()).getName().str(),
                       patternText(access.getPattern()), kind));
  }
  data["accesses"] = accesses;
  return data;
}

/// The allocation of `func` (walrus::getAllocation) as plain data.
py::dict allocationData(FuncOp func) {
  FunctionAllocation allocation = getAllocation(func);
  auto optional = [](std::optional<int64_t> value) {
    return value ? py::cast(*value) : py::none();
  };
  py::list nodes;
  for (const TensorPlacement &tensor : allocation.tensors) {
    py::dict entry;
    entry["tensor"] = tensor.tensors.front();
    entry["partitions"] = tensor.partitions;
    entry["bytes"] = tensor.bytes;
    entry["band_class"] = tensor.bandClass;
    entry["start"] = optional(tensor.start);
    entry["end"] = optional(tensor.end);
    entry["address"] = optional(tensor.address);
    entry["base_partition"] = optional(tensor.basePartition);
    nodes.append(entry);
  }
  py::dict data;
  data["function"] = allocation.function;
  data["nodes"] = nodes;
  data["peak"] = optional(allocation.peak);
  data["lower_bound"] = allocation.lowerBound;
  data["spills"] = allocation.spills;
  data["partitions"] = allocation.sbufPartitions;
  data["bytes_per_partition"] = allocation.sbufBytesPerPartition;
  data["points"] = allocation.points;
  return data;
}

/// The estimates of the cores that run each function (its own core after
/// the split, each core of a symbolic program), each kernel estimated once;
/// none for a function the model cannot time.
using Timelines = DenseMap<Operation *, SmallVector<CoreTimeline, 1>>;
Timelines getTimelines(ModuleOp module) {
  Timelines timelines;
  (void)walkKernelTimelines(module,
                            [&](FuncOp func, const CoreTimeline &timeline) {
                              timelines[func].push_back(timeline);
                            });
  return timelines;
}

/// `timelines` as plain data.
py::list timelineData(ArrayRef<CoreTimeline> timelines) {
  py::list result;
  for (const CoreTimeline &timeline : timelines) {
    py::dict busy, critical;
    for (unsigned engine = 0; engine < kNumEngines; ++engine) {
      py::str name(getEngineName(Engine(engine)).str());
      busy[name] = timeline.busy[engine];
      critical[name] = timeline.critical[engine];
    }
    critical["DMA latency"] = timeline.criticalDmaLatency;
    py::dict data;
    data["core"] = timeline.core;
    data["finish_ns"] = timeline.finish;
    data["busy_ns"] = busy;
    data["bound"] = timeline.instructions
                        ? py::cast(getEngineName(timeline.bound).str())
                        : py::none();
    data["dma_bytes"] = timeline.dmaBytes;
    data["flops"] = timeline.flops;
    data["roofline_ns"] = timeline.rooflineNs;
    data["roofline_limit"] = getRooflineLimitName(timeline.rooflineLimit).str();
    data["barrier_wait_ns"] = timeline.barrierWait;
    data["instructions"] = timeline.instructions;
    data["critical_path_ns"] = critical;
    data["critical_path_instructions"] = timeline.criticalInstructions;
    result.append(data);
  }
  return result;
}

py::list Module::programs() {
  DiagnosticCollector diagnostics(*context->context);
  FailureOr<SmallVector<ModuleOp>> found = findProgramModules(*module);
  if (failed(found))
    raise(diagnostics);
  Timelines timelines = getTimelines(*module);
  py::list programs;
  for (ModuleOp program : *found) {
    py::dict data;
    data["name"] =
        program.getName() ? py::cast(program.getName()->str()) : py::none();
    auto kernel = dyn_cast_if_present<KernelOp>(program->getParentOp());
    data["kernel"] = kernel ? py::cast(kernel.getSymName().str()) : py::none();
    std::optional<int64_t> core = getNeuronCoreId(program);
    data["core"] = core ? py::cast(*core) : py::none();
    data["lnc_size"] = getLncSize(program);
    data["target"] = getTarget(program).getName().str();
    py::list functions;
    for (FuncOp func : program.getOps<FuncOp>()) {
      py::dict function;
      function["name"] = func.getSymName().str();
      py::list memlocs, instructions;
      for (MemlocOp memloc : func.getMemlocs())
        memlocs.append(memlocData(memloc));
      func.walk([&](InstructionOpInterface instruction) {
        instructions.append(instructionData(instruction));
      });
      function["memlocs"] = memlocs;
      function["instructions"] = instructions;
      function["allocation"] = allocationData(func);
      function["timeline"] = timelineData(timelines.lookup(func));
      functions.append(function);
    }
    data["functions"] = functions;
    programs.append(data);
  }
  return programs;
}

/// `module` (parsed or imported in `context`) for Python, or walrus.Error
/// with the diagnostics that explain why there is none.
std::unique_ptr<Module> makeModule(std::shared_ptr<Context> context,
                                   OwningOpRef<ModuleOp> module,
                                   const DiagnosticCollector &diagnostics) {
  if (!module)
    raise(diagnostics);
  auto result = std::make_unique<Module>();
  result->context = std::move(context);
  result->module = std::move(module);
  return result;
}
} // namespace

PYBIND11_MODULE(_walrus, m) {
  m.doc() = "Walrus: the bir dialect and its passes";
  py::class_<DiagnosticRecord>(m, "Diagnostic",
                               "One MLIR diagnostic with its notes")
      .def_readonly("severity", &DiagnosticRecord::severity)
      .def_readonly("location", &DiagnosticRecord::location)
      .def_readonly("file", &DiagnosticRecord::file)
      .def_readonly("line", &DiagnosticRecord::line)
      .def_readonly("column", &DiagnosticRecord::column)
      .def_readonly("message", &DiagnosticRecord::message)
      .def_readonly("notes", &DiagnosticRecord::notes)
      .def("__str__", &DiagnosticRecord::str)
      .def("__repr__", [](const DiagnosticRecord &record) {
        return "<walrus.Diagnostic " + record.str() + ">";
      });
  static py::exception<WalrusError> error(m, "Error");
  py::register_exception_translator([](std::exception_ptr pointer) {
    try {
      if (pointer)
        std::rethrow_exception(pointer);
    } catch (const WalrusError &e) {
      // An instance that carries the diagnostics, not only their text.
      py::object instance =
          py::reinterpret_borrow<py::object>(error.ptr())(py::str(e.what()));
      instance.attr("diagnostics") = py::cast(e.diagnostics);
      PyErr_SetObject(error.ptr(), instance.ptr());
    }
  });

  py::class_<Context, std::shared_ptr<Context>>(m, "Context")
      .def(py::init<>())
      .def(
          "parse",
          [](std::shared_ptr<Context> self, const std::string &text,
             const std::string &filename) {
            DiagnosticCollector diagnostics(*self->context);
            if (failed(checkSourceNesting(text, filename, self->context.get())))
              raise(diagnostics);
            ParserConfig config(self->context.get());
            return makeModule(
                self, parseSourceString<ModuleOp>(text, config, filename),
                diagnostics);
          },
          py::arg("text"), py::arg("filename") = "<string>",
          "Parses and verifies BIR text; raises walrus.Error with the "
          "diagnostics")
      .def(
          "import_minimalloc_csv",
          [](std::shared_ptr<Context> self, const std::string &text,
             const std::string &filename, int64_t capacity) {
            DiagnosticCollector diagnostics(*self->context);
            if (capacity < 0)
              throw py::value_error("capacity must not be negative");
            llvm::SourceMgr sourceMgr;
            sourceMgr.AddNewSourceBuffer(
                llvm::MemoryBuffer::getMemBufferCopy(text, filename),
                llvm::SMLoc());
            return makeModule(
                self,
                importMiniMallocCsv(sourceMgr, self->context.get(), capacity),
                diagnostics);
          },
          py::arg("text"), py::arg("filename") = "<string>",
          py::arg("capacity") = 0,
          "A MiniMalloc CSV problem (id,lower,upper,size) as the BIR program "
          "walrus-translate --import-minimalloc-csv makes (capacity: SBUF "
          "bytes per partition, 0 for the sum of the sizes); raises "
          "walrus.Error naming the line of a bad row");

  py::class_<Module>(m, "Module")
      .def("__str__", &Module::str)
      .def("run", &Module::run, py::arg("pipeline"),
           "Runs a pass pipeline, e.g. 'walrus-pipeline' or "
           "'lnc-split,vn-split'; raises walrus.Error on failure")
      .def_readonly("remarks", &Module::remarks,
                    "Remarks and warnings of the last run, as text")
      .def_readonly("diagnostics", &Module::lastDiagnostics,
                    "Every diagnostic of the last run")
      .def("programs", &Module::programs,
           "The programs (symbolic or per-core modules) as plain data");
}
