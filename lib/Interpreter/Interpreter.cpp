//===- Interpreter.cpp - Reference interpreter for BIR --------------------===//

#include "Walrus/Interpreter/Interpreter.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"

#include "Elements.h"
#include "Machine.h"
#include "Npy.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/xxhash.h"

#include <random>

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::interp;

namespace {
/// One program: the functions the cores run and their shard ids.
struct Program {
  SmallVector<std::pair<int64_t, FuncOp>> cores;
};
} // namespace

static FailureOr<FuncOp> getEntry(ModuleOp module) {
  if (auto main = module.lookupSymbol<FuncOp>("main"))
    return main;
  return emitError(module.getLoc(),
                   "walrus-run: the module has no bir.func @main");
}

/// The programs of `top` in order: a symbolic module runs on each of its
/// lnc_size cores; a group of per-core modules runs one module per core.
static FailureOr<SmallVector<Program>> getPrograms(ModuleOp top) {
  FailureOr<SmallVector<ModuleOp>> found = findProgramModules(top);
  if (failed(found))
    return failure();
  SmallVector<ModuleOp> &modules = *found;
  if (modules.empty())
    return emitError(top.getLoc(), "walrus-run: no module holds a bir.func");
  SmallVector<Program> programs;
  for (ModuleOp module : modules) {
    FailureOr<FuncOp> entry = getEntry(module);
    if (failed(entry))
      return failure();
    std::optional<int64_t> core = getNeuronCoreId(module);
    if (!core) {
      Program &program = programs.emplace_back();
      for (int64_t shard = 0; shard < getLncSize(module); ++shard)
        program.cores.push_back({shard, *entry});
      continue;
    }
    // The cores of one kernel sit side by side in one block.
    if (*core == 0 || programs.empty() ||
        programs.back().cores.back().second->getParentOp()->getBlock() !=
            module->getBlock())
      programs.emplace_back();
    if (static_cast<int64_t>(programs.back().cores.size()) != *core)
      return emitError(module.getLoc())
             << "walrus-run: per-core module for core " << *core
             << " is out of order";
    programs.back().cores.push_back({*core, *entry});
  }
  for (Program &program : programs) {
    FuncOp first = program.cores.front().second;
    if (static_cast<int64_t>(program.cores.size()) != getLncSize(first))
      return first.emitError()
             << "walrus-run: the program has " << program.cores.size() << " of "
             << getLncSize(first) << " cores";
  }
  return programs;
}

/// Values in [-1, 1) for floats and [-8, 8) for integers ([0, 16) unsigned),
/// from a generator seeded by the run's seed and the tensor's name, so that
/// a tensor gets the same values whatever else the program holds.
static void fillFromSeed(StringRef name, DramTensor &tensor, uint64_t seed) {
  std::mt19937_64 generator(seed ^ llvm::xxh3_64bits(name));
  Type type = tensor.type.getElementType();
  int64_t width = tensor.type.getElementBytes();
  bool isInteger = isa<IntegerType>(type);
  bool isUnsigned = type.isUnsignedInteger();
  for (int64_t i = 0, e = tensor.type.getNumElements(); i < e; ++i) {
    double value;
    if (isInteger)
      value = double(int64_t(generator() % 16) - (isUnsigned ? 0 : 8));
    else
      value = double(generator() >> 11) * 0x1.0p-53 * 2 - 1;
    storeElement(type, &tensor.bytes[i * width], value);
  }
}

/// The bytes of a constant global's initial value, if it holds them (dense
/// elements, a splat, or a dense_resource blob); an elided resource
/// (`__elided__`) holds none.
static std::optional<std::vector<uint8_t>>
getInitialBytes(memref::GlobalOp global, int64_t bytes) {
  Attribute initial = global.getInitialValue().value_or(Attribute());
  ArrayRef<char> data;
  auto dense = dyn_cast_or_null<DenseElementsAttr>(initial);
  // MLIR packs i1 elements as bits; a kernel holds each in a byte.
  if (dense && dense.getElementType().isInteger(1)) {
    std::vector<uint8_t> result;
    result.reserve(bytes);
    while (int64_t(result.size()) < bytes)
      for (bool value : dense.getValues<bool>())
        result.push_back(value);
    result.resize(bytes);
    return result;
  }
  if (dense)
    data = dense.getRawData();
  else if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(initial))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      data = blob->getData();
  if (data.empty() || bytes % data.size())
    return std::nullopt;
  // A splat holds one element.
  std::vector<uint8_t> result;
  result.reserve(bytes);
  while (int64_t(result.size()) < bytes)
    result.insert(result.end(), data.begin(), data.end());
  return result;
}

namespace {
/// A DRAM input a launch binds to a constant global: a weight.
struct Weight {
  memref::GlobalOp global;
  MemlocOp memloc;
};
} // namespace

/// The weights of every launch in `top`, by memory location name.
static llvm::StringMap<Weight> getWeights(ModuleOp top) {
  llvm::StringMap<Weight> weights;
  top.walk([&](LaunchOp launch) {
    auto kernel = SymbolTable::lookupNearestSymbolFrom<KernelOp>(
        launch, launch.getKernelAttr());
    if (!kernel)
      return;
    auto modules = kernel.getBody().front().getOps<ModuleOp>();
    FuncOp main = modules.empty()
                      ? FuncOp()
                      : (*modules.begin()).lookupSymbol<FuncOp>("main");
    if (!main)
      return;
    for (auto [argument, memloc] :
         llvm::zip(launch.getArguments(), getLaunchedMemlocs(main))) {
      auto getGlobal = argument.getDefiningOp<memref::GetGlobalOp>();
      auto global =
          getGlobal ? SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
                          getGlobal, getGlobal.getNameAttr())
                    : memref::GlobalOp();
      if (global && global.getConstant() &&
          memloc.getKind() == TensorKind::Input)
        weights[memloc.getName()] = {global, memloc};
    }
  });
  return weights;
}

/// Fills the input `tensor` of `memloc`: from its --input file, from the
/// constant global a launch binds it to, or from the seed.
static LogicalResult fillInput(MemlocOp memloc, DramTensor &tensor,
                               const RunOptions &options,
                               const llvm::StringMap<Weight> &weights) {
  auto file = options.inputFiles.find(memloc.getName());
  if (file != options.inputFiles.end()) {
    std::string error;
    if (failed(readTensorFile(file->second, tensor, error)))
      return memloc.emitError() << "walrus-run: " << error;
    return success();
  }
  auto weight = weights.find(memloc.getName());
  if (weight != weights.end()) {
    if (std::optional<std::vector<uint8_t>> bytes = getInitialBytes(
            weight->second.global, int64_t(tensor.bytes.size()))) {
      tensor.bytes = std::move(*bytes);
      return success();
    }
    memref::GlobalOp(weight->second.global).emitRemark()
        << "walrus-run: the global holds no data (an elided resource): '"
        << memloc.getName() << "' is seeded like an input";
  }
  fillFromSeed(memloc.getName(), tensor, options.seed);
  return success();
}

static LogicalResult createDram(ArrayRef<Program> programs,
                                const RunOptions &options,
                                const llvm::StringMap<Weight> &weights,
                                MemoryBudget &budget, Dram &dram) {
  for (const Program &program : programs) {
    for (auto [shard, func] : program.cores) {
      for (MemlocOp memloc : func.getMemlocs()) {
        MemoryType type = memloc.getMemoryType();
        if (type.isOnChip())
          continue;
        auto [it, inserted] = dram.insert({memloc.getName(), DramTensor()});
        DramTensor &tensor = it->second;
        if (!inserted) {
          if (tensor.type != type)
            return memloc.emitError()
                   << "walrus-run: DRAM tensor '" << memloc.getName() << "' is "
                   << type << " here but " << tensor.type << " elsewhere";
          continue;
        }
        tensor.type = type;
        tensor.kind = memloc.getKind();
        int64_t bytes = type.getNumElements() * type.getElementBytes();
        if (failed(budget.take(bytes, memloc, "the DRAM tensor")))
          return failure();
        tensor.bytes.assign(bytes, 0);
        if (tensor.kind == TensorKind::Input &&
            failed(fillInput(memloc, tensor, options, weights)))
          return failure();
      }
    }
  }
  for (const auto &input : options.inputFiles) {
    auto it = dram.find(input.getKey());
    if (it == dram.end() || it->second.kind != TensorKind::Input)
      return emitError(UnknownLoc::get(
                 FuncOp(programs.front().cores.front().second).getContext()))
             << "walrus-run: the program has no DRAM input '" << input.getKey()
             << "'";
  }
  return success();
}

FailureOr<Dram> walrus::interp::run(ModuleOp top, const RunOptions &options) {
  FailureOr<SmallVector<Program>> programs = getPrograms(top);
  if (failed(programs))
    return failure();
  Dram dram;
  MemoryBudget budget{options.maxBytes, options.maxIterations,
                      options.maxElements};
  if (failed(createDram(*programs, options, getWeights(top), budget, dram)))
    return failure();
  for (const Program &program : *programs) {
    std::vector<Core> cores;
    for (auto &[shard, func] : program.cores)
      cores.emplace_back(shard, func, options.uninitializedByte, budget);
    Machine machine(dram, std::move(cores));
    if (failed(machine.run()))
      return failure();
  }
  return dram;
}

void walrus::interp::printTensor(raw_ostream &os, StringRef name,
                                 const DramTensor &tensor) {
  MemoryType tensorType = tensor.type;
  Type type = tensorType.getElementType();
  int64_t rowLength = tensorType.getShape().back();
  int64_t width = tensorType.getElementBytes();
  os << name << ": " << tensorType << "\n";
  for (int64_t i = 0, e = tensorType.getNumElements(); i < e; ++i) {
    os << (i % rowLength ? " " : "  ");
    printElement(os, type, &tensor.bytes[i * width]);
    if ((i + 1) % rowLength == 0)
      os << "\n";
  }
}

/// `[i, j, ...]` of row-major element `element` of `shape`.
static std::string indexText(ArrayRef<int64_t> shape, int64_t element) {
  SmallVector<int64_t> index(shape.size());
  for (size_t dim = shape.size(); dim-- > 0;) {
    index[dim] = element % shape[dim];
    element /= shape[dim];
  }
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(index, os);
  return text + "]";
}

std::optional<std::string> walrus::interp::compareOutputs(const Dram &before,
                                                          const Dram &after) {
  for (const auto &[name, tensor] : before) {
    if (tensor.kind != TensorKind::Output)
      continue;
    auto other = after.find(name);
    if (other == after.end())
      return ("output '" + name + "' is missing after").str();
    if (other->second.type != tensor.type)
      return ("output '" + name + "' changed type").str();
    MemoryType tensorType = tensor.type;
    int64_t width = tensorType.getElementBytes();
    Type type = tensorType.getElementType();
    for (int64_t i = 0, e = tensorType.getNumElements(); i < e; ++i) {
      const uint8_t *lhs = &tensor.bytes[i * width];
      const uint8_t *rhs = &other->second.bytes[i * width];
      if (std::memcmp(lhs, rhs, width) == 0)
        continue;
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "output '" << name << "' differs at element " << i << " "
         << indexText(tensorType.getShape(), i) << ": before ";
      printElement(os, type, lhs);
      os << ", after ";
      printElement(os, type, rhs);
      return text;
    }
  }
  for (const auto &[name, tensor] : after)
    if (tensor.kind == TensorKind::Output && !before.count(name))
      return ("output '" + name + "' appears only after").str();
  return std::nullopt;
}
