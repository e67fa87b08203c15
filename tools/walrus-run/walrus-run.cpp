//===- walrus-run.cpp - Run BIR programs on the reference interpreter -----===//
//
//   walrus-run prog.mlir                     print a hash of every output
//   walrus-run prog.mlir --print-outputs     print every output value
//   walrus-run prog.mlir --after='lnc-split' run before and after a pass
//                                            pipeline, compare bit for bit
//   walrus-run a.mlir b.mlir                 compare two programs
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "Walrus/Dialect/BIR/IR/SourceLimits.h"
#include "Walrus/Interpreter/Interpreter.h"
#include "Walrus/Walrus.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace walrus;

static llvm::cl::list<std::string> inputFilenames(
    llvm::cl::Positional, llvm::cl::desc("<program> [<program to compare>]"),
    llvm::cl::OneOrMore, llvm::cl::cat(walrus::tools::getWalrusCategory()));
static llvm::cl::opt<uint64_t>
    seed("seed", llvm::cl::desc("Seed of the input values not read from files"),
         llvm::cl::init(0), llvm::cl::cat(walrus::tools::getWalrusCategory()));
static llvm::cl::list<std::string> inputs(
    "input",
    llvm::cl::desc("name=path: read DRAM input 'name' from a .npy or raw file"),
    llvm::cl::cat(walrus::tools::getWalrusCategory()));
static llvm::cl::opt<bool>
    printOutputs("print-outputs",
                 llvm::cl::desc("Print every value of every output"),
                 llvm::cl::cat(walrus::tools::getWalrusCategory()));
static llvm::cl::opt<std::string>
    outputDir("output-dir",
              llvm::cl::desc("Write every output as <dir>/<name>.npy"),
              llvm::cl::cat(walrus::tools::getWalrusCategory()));
static llvm::cl::opt<std::string> after(
    "after",
    llvm::cl::desc("Pass pipeline: run the program before and after it and "
                   "compare every DRAM output bit for bit"),
    llvm::cl::cat(walrus::tools::getWalrusCategory()));
static llvm::cl::opt<int64_t> maxBytes(
    "max-bytes",
    llvm::cl::desc("Most bytes the run may hold at once (DRAM, on-chip "
                   "memories); default 4 GiB"),
    llvm::cl::init(int64_t(4) << 30),
    llvm::cl::cat(walrus::tools::getWalrusCategory()));
static llvm::cl::opt<int64_t> maxIterations(
    "max-iterations",
    llvm::cl::desc("Most loop iterations the run may execute, over all "
                   "cores; default 2^22"),
    llvm::cl::init(int64_t(1) << 22),
    llvm::cl::cat(walrus::tools::getWalrusCategory()));
static llvm::cl::opt<int64_t> maxElements(
    "max-elements",
    llvm::cl::desc("Most operand elements the run's instructions may read "
                   "and write, over all cores; default 2^28"),
    llvm::cl::init(int64_t(1) << 28),
    llvm::cl::cat(walrus::tools::getWalrusCategory()));
static llvm::cl::opt<bool> zeroMemory(
    "zero-onchip",
    llvm::cl::desc("Start on-chip memory as zeros instead of 0xA5 bytes"),
    llvm::cl::cat(walrus::tools::getWalrusCategory()));

/// Parses `path` with a source manager of its own: the parser reads a
/// source manager's main buffer, so two programs need two managers.
static OwningOpRef<ModuleOp> parse(StringRef path, MLIRContext &context,
                                   llvm::SourceMgr &sourceMgr) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      readBoundedFile(path, walrus::tools::maxInputBytes, error);
  if (!file) {
    llvm::errs() << "walrus-run: error: " << error << "\n";
    return nullptr;
  }
  if (failed(checkSourceNesting(file->getBuffer(), file->getBufferIdentifier(),
                                &context)))
    return nullptr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
}

static LogicalResult runPipeline(ModuleOp module, StringRef pipeline) {
  // Accept "a,b" as well as "builtin.module(a,b)".
  StringRef inner = pipeline.trim();
  if (inner.consume_front("builtin.module(") && !inner.consume_back(")"))
    return emitError(module.getLoc())
           << "walrus-run: unbalanced pipeline '" << pipeline << "'";
  PassManager pm(module.getContext());
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(inner, pm, errorStream)))
    return emitError(module.getLoc()) << "walrus-run: bad pipeline: " << error;
  return pm.run(module);
}

static void printSummary(const interp::Dram &dram) {
  for (const auto &[name, tensor] : dram) {
    if (tensor.kind != bir::TensorKind::Output)
      continue;
    if (printOutputs) {
      interp::printTensor(llvm::outs(), name, tensor);
      continue;
    }
    llvm::outs() << name << ": " << tensor.type << " xxh3 "
                 << llvm::format_hex(llvm::xxh3_64bits(tensor.bytes), 18)
                 << "\n";
  }
}

/// Whether `name` names a file directly inside a directory: no separator,
/// not `.` or `..`, so that an output never lands outside --output-dir.
static bool isPlainFileName(StringRef name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of("/\\") == StringRef::npos &&
         name.find('\0') == StringRef::npos;
}

static int writeOutputs(const interp::Dram &dram) {
  if (outputDir.empty())
    return 0;
  // Every name is checked before anything is written.
  for (const auto &[name, tensor] : dram)
    if (tensor.kind == bir::TensorKind::Output && !isPlainFileName(name)) {
      llvm::errs() << "walrus-run: error: output '" << name
                   << "' is not a plain file name; --output-dir writes "
                      "<name>.npy inside the directory only\n";
      return 1;
    }
  if (std::error_code code = llvm::sys::fs::create_directories(outputDir)) {
    llvm::errs() << "walrus-run: error: cannot create '" << outputDir
                 << "': " << code.message() << "\n";
    return 1;
  }
  for (const auto &[name, tensor] : dram) {
    if (tensor.kind != bir::TensorKind::Output)
      continue;
    llvm::SmallString<128> path(outputDir);
    llvm::sys::path::append(path, name + ".npy");
    std::string error;
    if (failed(interp::writeNpy(path, tensor, error))) {
      llvm::errs() << "walrus-run: error: " << error << "\n";
      return 1;
    }
  }
  return 0;
}

/// The run options from the command line; nothing after an error.
static std::optional<interp::RunOptions> getRunOptions() {
  interp::RunOptions options;
  options.seed = seed;
  options.uninitializedByte = zeroMemory ? 0 : 0xA5;
  options.maxBytes = maxBytes;
  options.maxIterations = maxIterations;
  options.maxElements = maxElements;
  for (StringRef input : inputs) {
    auto [name, path] = input.split('=');
    if (name.empty() || path.empty()) {
      llvm::errs() << "walrus-run: error: --input takes name=path, got '"
                   << input << "'\n";
      return std::nullopt;
    }
    options.inputFiles[name] = path.str();
  }
  return options;
}

/// Runs both programs and compares their outputs: 0 when identical (the
/// second program's outputs are then written), 1 otherwise.
static int compareRuns(ModuleOp before, ModuleOp transformed,
                       const interp::RunOptions &options) {
  FailureOr<interp::Dram> first = interp::run(before, options);
  if (failed(first))
    return 1;
  FailureOr<interp::Dram> second = interp::run(transformed, options);
  if (failed(second))
    return 1;
  if (std::optional<std::string> difference =
          interp::compareOutputs(*first, *second)) {
    llvm::outs() << "mismatch: " << *difference << "\n";
    return 1;
  }
  unsigned outputs = 0;
  uint64_t bytes = 0;
  for (const auto &[name, tensor] : *first)
    if (tensor.kind == bir::TensorKind::Output) {
      ++outputs;
      bytes += tensor.bytes.size();
    }
  llvm::outs() << "identical: " << outputs << " output(s), " << bytes
               << " bytes\n";
  return writeOutputs(*second);
}

/// The tool's work; main checks what it printed reached standard output.
static int runTool(int argc, char **argv) {
  registerWalrusPasses();
  registerWalrusConversionPasses();
  registerWalrusPipelines();
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "Walrus reference interpreter\n");

  DialectRegistry registry;
  registerWalrusDialects(registry);
  registerHostDialects(registry);
  MLIRContext context(registry);
  // An error names its instruction's location; printing the operation
  // after it repeats the line in generic form.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr, secondSourceMgr;
  // Shows source lines of either file: it loads files it has not seen.
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);

  if (inputFilenames.size() > 2 ||
      (inputFilenames.size() == 2 && !after.empty())) {
    llvm::errs()
        << "walrus-run: error: give one program, with --after to compare it "
           "with its transformed self, "
           "or two programs to compare\n";
    return 1;
  }
  std::optional<interp::RunOptions> options = getRunOptions();
  if (!options)
    return 1;
  OwningOpRef<ModuleOp> before = parse(inputFilenames[0], context, sourceMgr);
  if (!before)
    return 1;
  OwningOpRef<ModuleOp> transformed;
  if (!after.empty()) {
    transformed = before->clone();
    if (failed(runPipeline(*transformed, after)))
      return 1;
  } else if (inputFilenames.size() == 2) {
    transformed = parse(inputFilenames[1], context, secondSourceMgr);
    if (!transformed)
      return 1;
  }
  if (transformed)
    return compareRuns(*before, *transformed, *options);
  FailureOr<interp::Dram> result = interp::run(*before, *options);
  if (failed(result))
    return 1;
  printSummary(*result);
  return writeOutputs(*result);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  walrus::tools::introduceTool();
  return walrus::tools::checkStandardOutput("walrus-run", runTool(argc, argv));
}
