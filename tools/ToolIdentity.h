//===- ToolIdentity.h - How the tools introduce themselves ------*- C++ -*-===//
//
// libMLIR.so brings every LLVM backend's command-line flags (AMDGPU, ARM,
// NVPTX, ...): registered before main, they filled --help with hundreds of
// options no Walrus tool reads. Each tool hides them (to --help-hidden), as
// clang-format and iree-compile do, keeping its own options, the ones MLIR
// registers while the tool sets up, and the help and version flags; and
// --version names Walrus's version and commit after LLVM's.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_TOOLS_TOOLIDENTITY_H
#define WALRUS_TOOLS_TOOLIDENTITY_H

#include "WalrusVersion.inc"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace walrus::tools {

/// The category of the options the tools define before main.
inline llvm::cl::OptionCategory &getWalrusCategory() {
  static llvm::cl::OptionCategory category("Walrus options");
  return category;
}

/// Hides every option registered so far but the tool's own and the help
/// and version flags, and adds Walrus's version to --version. Call first
/// in main, before MLIR's options are registered.
inline void introduceTool() {
  static const llvm::StringRef kept[] = {
      "help",    "help-hidden",   "help-list",         "help-list-hidden",
      "version", "print-options", "print-all-options", "color"};
  for (auto &[name, option] : llvm::cl::getRegisteredOptions())
    if (!llvm::is_contained(option->Categories, &getWalrusCategory()) &&
        !llvm::is_contained(kept, name))
      option->setHiddenFlag(llvm::cl::Hidden);
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "Walrus:\n  Walrus version " << WALRUS_VERSION << "\n  commit "
       << WALRUS_COMMIT << "\n";
  });
}

} // namespace walrus::tools

#endif // WALRUS_TOOLS_TOOLIDENTITY_H
