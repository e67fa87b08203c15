//===- ToolSupport.h - What the command-line drivers share ------*- C++ -*-===//
//
// walrus-opt and walrus-translate run MLIR's drivers (MlirOptMain,
// mlirTranslateMain); these helpers adjust the arguments they get and say
// what the drivers would say about unusable files, as an error of the tool.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_TOOLS_TOOLSUPPORT_H
#define WALRUS_TOOLS_TOOLSUPPORT_H

#include "ToolIdentity.h"
#include "Walrus/Dialect/BIR/IR/SourceLimits.h"
#include "Walrus/Support/FileOutput.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <optional>
#include <vector>

namespace walrus::tools {

/// --max-input-bytes: the largest input file a tool reads.
inline llvm::cl::opt<uint64_t> maxInputBytes(
    "max-input-bytes",
    llvm::cl::desc("Largest input file read, in bytes (default 2^30); "
                   "inputs that are not regular files are refused"),
    llvm::cl::init(kDefaultMaxInputBytes), llvm::cl::cat(getWalrusCategory()));

/// `argv` with `--mlir-print-op-on-diagnostic=false` unless the user set
/// that flag: an error in a pass names its location; dumping the whole
/// operation after it (MLIR's default) buries the error under the IR.
inline std::vector<char *> withQuietDiagnostics(int argc, char **argv) {
  static char quiet[] = "--mlir-print-op-on-diagnostic=false";
  std::vector<char *> args(argv, argv + argc);
  bool userSet = llvm::any_of(args, [](llvm::StringRef arg) {
    return arg.ltrim('-').starts_with("mlir-print-op-on-diagnostic");
  });
  if (!userSet)
    args.insert(args.begin() + 1, quiet);
  return args;
}

/// Whether the option spelled `arg` (no `=value`) takes the next argument
/// as its value: `-o`, and options registered so far that need a value.
inline bool takesNextArgument(llvm::StringRef arg) {
  llvm::StringRef name = arg.ltrim('-');
  if (name == "o")
    return true;
  auto &options = llvm::cl::getRegisteredOptions();
  auto option = options.find(name);
  return option != options.end() &&
         option->second->getValueExpectedFlag() == llvm::cl::ValueRequired;
}

/// Prints `message` as an error of `tool`; false.
inline bool toolError(llvm::StringRef tool, const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), tool) << message << "\n";
  return false;
}

/// How an error names output file `output`.
inline std::string describeOutput(llvm::StringRef output) {
  return output == "-" ? "standard output" : "'" + output.str() + "'";
}

/// `status`, or 1 after an error of `tool` when what it printed to standard
/// output could not all be written (a full disk): left to the stream's
/// destructor, that would abort.
inline int checkStandardOutput(llvm::StringRef tool, int status) {
  if (std::error_code code = takeError(llvm::outs())) {
    toolError(tool, "cannot write standard output: " + code.message());
    return 1;
  }
  return status;
}

/// Makes the abort on an output stream that failed to write, in a driver
/// that never checks (mlirTranslateMain), an error of `tool` naming
/// `output`, exit code 1.
inline void reportWriteFailures(const char *tool, const std::string &output) {
  static std::string name;
  name = describeOutput(output);
  llvm::install_fatal_error_handler(
      [](void *tool, const char *reason, bool) {
        llvm::StringRef text(reason);
        if (text.consume_front("IO failure on output stream: "))
          toolError(static_cast<const char *>(tool),
                    "cannot write " + name + ": " + text);
        else
          toolError(static_cast<const char *>(tool), text);
      },
      const_cast<char *>(tool));
}

/// Whether `output` can be created: standard output, or a file in a
/// directory that exists (else an error of `tool`).
inline bool checkOutput(llvm::StringRef tool, llvm::StringRef output) {
  llvm::StringRef directory = llvm::sys::path::parent_path(output);
  if (output == "-" || directory.empty() ||
      llvm::sys::fs::is_directory(directory))
    return true;
  return toolError(tool, "cannot open output file '" + output +
                             "': no directory '" + directory + "'");
}

/// `input`'s contents (a regular file within --max-input-bytes), or null
/// after an error of `tool`.
inline std::unique_ptr<llvm::MemoryBuffer> readInput(llvm::StringRef tool,
                                                     llvm::StringRef input) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      readBoundedFile(input, maxInputBytes, error);
  if (!file)
    toolError(tool, error);
  return file;
}

/// Fails, with an error of `tool`, when the input file named on the
/// command line cannot be read or the output file's directory does not
/// exist: the drivers' own messages say neither which tool nor "error".
/// For MlirTranslateMain, whose options are not visible before it runs:
/// arguments it cannot attribute for sure (two candidates for the input)
/// are left to the driver.
inline bool checkFileArguments(llvm::StringRef tool,
                               llvm::ArrayRef<char *> args,
                               std::string *outputName = nullptr) {
  std::vector<llvm::StringRef> positional;
  std::optional<llvm::StringRef> output;
  for (size_t i = 1; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    if (arg == "--") {
      positional.insert(positional.end(), args.begin() + i + 1, args.end());
      break;
    }
    if (arg.size() > 1 && arg.starts_with("-")) {
      auto [name, value] = arg.split('=');
      // Read before the driver parses its options.
      uint64_t limit;
      if (name.ltrim('-') == maxInputBytes.ArgStr && arg.contains('=') &&
          !value.getAsInteger(10, limit))
        maxInputBytes = limit;
      if (name.ltrim('-') == "o" && arg.contains('='))
        output = value;
      else if (!arg.contains('=') && takesNextArgument(arg) &&
               i + 1 < args.size()) {
        if (name.ltrim('-') == "o")
          output = args[i + 1];
        ++i;
      }
      continue;
    }
    positional.push_back(arg);
  }
  if (positional.size() == 1 && positional[0] != "-" &&
      !readInput(tool, positional[0]))
    return false;
  if (outputName)
    *outputName = output.value_or("-").str();
  return !output || checkOutput(tool, *output);
}

/// For MlirOptMain, given its file names: fails with an error of `tool`,
/// or one at the offending line, when the output's directory does not
/// exist, the input cannot be read, or it nests brackets deeper than the
/// parser can take (checkSourceNesting). Standard input is read once, by
/// the driver, and not checked.
inline bool checkFiles(llvm::StringRef tool, llvm::StringRef input,
                       llvm::StringRef output, mlir::MLIRContext &context) {
  if (!checkOutput(tool, output))
    return false;
  if (input == "-")
    return true;
  std::unique_ptr<llvm::MemoryBuffer> file = readInput(tool, input);
  if (!file)
    return false;
  llvm::StringRef text = file->getBuffer();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  return succeeded(checkSourceNesting(text, input, &context));
}

} // namespace walrus::tools

#endif // WALRUS_TOOLS_TOOLSUPPORT_H
