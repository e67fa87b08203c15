//===- WalrusModule.cpp - Python bindings of Walrus -----------------------===//
//
// A small, stable surface over the C++ API: parse, print, run passes or the
// pipeline, and read back programs, tensors, instructions and allocations
// as plain Python data. Errors raise walrus.Error with the MLIR diagnostics.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/Interference.h"
#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Transforms/Passes.h"
#include "Walrus/Transforms/Pipelines.h"
#include "Walrus/Walrus.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>

namespace py = pybind11;
using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
/// Collects diagnostics as "location: severity: message" lines.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diagnostic) {
          std::string text;
          llvm::raw_string_ostream os(text);
          Location location = diagnostic.getLocation();
          if (auto file = dyn_cast<FileLineColLoc>(location))
            os << file.getFilename().getValue() << ":" << file.getLine()
               << ":" << file.getColumn() << ": ";
          else
            os << location << ": ";
          switch (diagnostic.getSeverity()) {
          case DiagnosticSeverity::Error:
            os << "error: ";
            break;
          case DiagnosticSeverity::Warning:
            os << "warning: ";
            break;
          case DiagnosticSeverity::Remark:
            os << "remark: ";
            break;
          case DiagnosticSeverity::Note:
            os << "note: ";
            break;
          }
          os << diagnostic.str();
          lines.push_back(text);
          return success();
        }) {}

  std::string text() const {
    std::string joined;
    for (const std::string &line : lines)
      joined += line + "\n";
    return joined;
  }
  const std::vector<std::string> &getLines() const { return lines; }

private:
  std::vector<std::string> lines;
  ScopedDiagnosticHandler handler;
};

struct WalrusError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// An MLIR context with the bir dialect loaded.
struct Context {
  Context() {
    static std::once_flag registered;
    std::call_once(registered, [] {
      registerWalrusPasses();
      registerWalrusPipelines();
    });
    DialectRegistry registry;
    registerWalrusDialects(registry);
    registerHostDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadAllAvailableDialects();
  }
  std::unique_ptr<MLIRContext> context;
};

/// A parsed module; keeps its context alive.
struct Module {
  std::shared_ptr<Context> context;
  OwningOpRef<ModuleOp> module;
  std::vector<std::string> remarks;

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
    if (failed(parsePassPipeline(inner, pm, errorStream)))
      throw WalrusError("bad pipeline '" + pipeline + "': " + error);
    bool ok = succeeded(pm.run(*module));
    remarks = diagnostics.getLines();
    if (!ok)
      throw WalrusError(diagnostics.text());
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
  data["shape"] = py::tuple(py::cast(std::vector<int64_t>(
      type.getShape().begin(), type.getShape().end())));
  std::string dtype;
  llvm::raw_string_ostream os(dtype);
  os << type.getElementType();
  data["dtype"] = dtype;
  data["kind"] = stringifyTensorKind(memloc.getKind()).str();
  data["partitions"] = type.isOnChip() ? type.getPartitions() : 0;
  data["bytes_per_partition"] =
      type.isOnChip() ? type.getBytesPerPartition() : 0;
  data["address"] = memloc.getAddress() ? py::cast(int64_t(*memloc.getAddress()))
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
    accesses.append(py::make_tuple(
        getDefiningMemloc(access.getMemloc()).getName().str(),
        patternText(access.getPattern()), kind));
  }
  data["accesses"] = accesses;
  return data;
}

/// Rectangles and live ranges of the SBUF tensors of `func`, with the peak
/// and the lower bound.
py::dict allocationData(FuncOp func) {
  TensorLiveness liveness(func);
  TargetAttr target = getTarget(func);
  InterferenceGraph graph(liveness, {}, target.getSbufPartitions());
  py::list nodes;
  int64_t peak = 0;
  bool placed = true;
  for (const SbNode &node : graph.getNodes()) {
    MemlocOp memloc = node.members.front();
    py::dict entry;
    entry["tensor"] = memloc.getName().str();
    entry["partitions"] = node.partitions;
    entry["bytes"] = node.bytes;
    entry["band_class"] = node.bandClass;
    entry["start"] = node.live ? py::cast(node.range.start) : py::none();
    entry["end"] = node.live ? py::cast(node.range.end) : py::none();
    if (memloc.getAddress()) {
      entry["address"] = int64_t(*memloc.getAddress());
      entry["base_partition"] = int64_t(*memloc.getBasePartition());
      peak = std::max<int64_t>(peak, *memloc.getAddress() + node.bytes);
    } else {
      placed = false;
      entry["address"] = py::none();
      entry["base_partition"] = py::none();
    }
    nodes.append(entry);
  }
  py::dict data;
  data["nodes"] = nodes;
  data["peak"] = placed ? py::cast(peak) : py::none();
  data["lower_bound"] = graph.getLowerBound();
  data["partitions"] = target.getSbufPartitions();
  data["bytes_per_partition"] = target.getSbufBytesPerPartition();
  data["points"] = liveness.getOrder().getNumPoints();
  return data;
}

py::list Module::programs() {
  DiagnosticCollector diagnostics(*context->context);
  FailureOr<SmallVector<ModuleOp>> found = findProgramModules(*module);
  if (failed(found))
    throw WalrusError(diagnostics.text());
  py::list programs;
  for (ModuleOp program : *found) {
    py::dict data;
    data["name"] = program.getName() ? py::cast(program.getName()->str())
                                     : py::none();
    std::optional<int64_t> core = getNeuronCoreId(program);
    data["core"] = core ? py::cast(*core) : py::none();
    data["lnc_size"] = getLncSize(program);
    data["target"] = getTarget(program).getName().str();
    py::list functions;
    for (FuncOp func : program.getOps<FuncOp>()) {
      py::dict function;
      function["name"] = func.getSymName().str();
      py::list memlocs, instructions;
      for (MemlocOp memloc : func.getBody().front().getOps<MemlocOp>())
        memlocs.append(memlocData(memloc));
      func.walk([&](InstructionOpInterface instruction) {
        instructions.append(instructionData(instruction));
      });
      function["memlocs"] = memlocs;
      function["instructions"] = instructions;
      function["allocation"] = allocationData(func);
      functions.append(function);
    }
    data["functions"] = functions;
    programs.append(data);
  }
  return programs;
}
} // namespace

PYBIND11_MODULE(_walrus, m) {
  m.doc() = "Walrus: the bir dialect and its passes";
  static py::exception<WalrusError> error(m, "Error");
  py::register_exception_translator([](std::exception_ptr pointer) {
    try {
      if (pointer)
        std::rethrow_exception(pointer);
    } catch (const WalrusError &e) {
      error(e.what());
    }
  });

  py::class_<Context, std::shared_ptr<Context>>(m, "Context")
      .def(py::init<>())
      .def(
          "parse",
          [](std::shared_ptr<Context> self, const std::string &text,
             const std::string &filename) {
            DiagnosticCollector diagnostics(*self->context);
            ParserConfig config(self->context.get());
            OwningOpRef<ModuleOp> module =
                parseSourceString<ModuleOp>(text, config, filename);
            if (!module)
              throw WalrusError(diagnostics.text());
            auto result = std::make_unique<Module>();
            result->context = self;
            result->module = std::move(module);
            return result;
          },
          py::arg("text"), py::arg("filename") = "<string>",
          "Parses and verifies BIR text; raises walrus.Error with the "
          "diagnostics");

  py::class_<Module>(m, "Module")
      .def("__str__", &Module::str)
      .def("run", &Module::run, py::arg("pipeline"),
           "Runs a pass pipeline, e.g. 'walrus-pipeline' or "
           "'lnc-split,vn-split'; raises walrus.Error on failure")
      .def_readonly("remarks", &Module::remarks,
                    "Remarks and warnings of the last run")
      .def("programs", &Module::programs,
           "The programs (symbolic or per-core modules) as plain data");
}
