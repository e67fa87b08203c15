//===- ToolSupport.h - What the command-line drivers share ------*- C++ -*-===//
//
// walrus-opt and walrus-translate run MLIR's drivers (MlirOptMain,
// mlirTranslateMain); these helpers adjust the arguments they get and say
// what the drivers would say about unusable files, as an error of the tool.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_TOOLS_TOOLSUPPORT_H
#define WALRUS_TOOLS_TOOLSUPPORT_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#include <optional>
#include <vector>

namespace walrus::tools {

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

/// Fails, with `<tool>: error: ...`, when the input file named on the
/// command line cannot be read or the output file's directory does not
/// exist: the drivers' own messages say neither which tool nor "error".
/// Arguments it cannot attribute for sure (two candidates for the input)
/// are left to the driver.
inline bool checkFileArguments(llvm::StringRef tool,
                               llvm::ArrayRef<char *> args) {
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
  auto fail = [&](const llvm::Twine &message) {
    llvm::WithColor::error(llvm::errs(), tool) << message << "\n";
    return false;
  };
  if (positional.size() == 1 && positional[0] != "-") {
    auto input = llvm::MemoryBuffer::getFile(positional[0], /*IsText=*/true);
    if (!input)
      return fail("cannot open input file '" + positional[0] +
                  "': " + input.getError().message());
  }
  if (output && *output != "-") {
    llvm::StringRef directory = llvm::sys::path::parent_path(*output);
    if (!directory.empty() && !llvm::sys::fs::is_directory(directory))
      return fail("cannot open output file '" + *output + "': no directory '" +
                  directory + "'");
  }
  return true;
}

} // namespace walrus::tools

#endif // WALRUS_TOOLS_TOOLSUPPORT_H
