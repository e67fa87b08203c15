//===- ListedOptions.h - Option errors that list the options ----*- C++ -*-===//
//
// MLIR's pass option parser answers a misspelled option with "no such
// option X" and nothing else. Walrus's passes derive from ListedOptions
// (between the pass and its ODS base), which adds the options the pass
// takes to that error; the pipelines' option parsers do the same with
// getOptionNames.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_SUPPORT_LISTEDOPTIONS_H
#define WALRUS_SUPPORT_LISTEDOPTIONS_H

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace walrus {

/// The option names of a textual pipeline entry or option set as MLIR
/// prints it (`name{a=1 b={x y} c=z}`), comma separated, or "none".
inline std::string getOptionNames(llvm::StringRef printed) {
  size_t open = printed.find('{');
  if (open == llvm::StringRef::npos)
    return "none";
  llvm::SmallVector<std::string> names;
  std::string name;
  unsigned depth = 0;
  bool inName = true;
  for (char c : printed.drop_front(open + 1)) {
    if (inName) {
      if (c == '=' || c == '}') {
        if (!name.empty())
          names.push_back(name);
        name.clear();
        inName = false;
      } else if (c != ' ') {
        name += c;
      }
      continue;
    }
    if (c == '{' || c == '[')
      ++depth;
    else if ((c == '}' || c == ']') && depth)
      --depth;
    else if (c == ' ' && !depth)
      inName = true;
  }
  return names.empty() ? "none" : llvm::join(names, ", ");
}

/// The option names `pass` takes.
inline std::string getOptionNames(mlir::Pass &pass) {
  std::string printed;
  llvm::raw_string_ostream os(printed);
  pass.printAsTextualPipeline(os);
  return getOptionNames(printed);
}

/// `BaseT` (a pass's ODS-generated base) whose option errors end with the
/// options the pass takes.
template <typename BaseT> class ListedOptions : public BaseT {
public:
  using BaseT::BaseT;

  llvm::LogicalResult
  initializeOptions(llvm::StringRef options,
                    llvm::function_ref<llvm::LogicalResult(const llvm::Twine &)>
                        errorHandler) override {
    return BaseT::initializeOptions(options, [&](const llvm::Twine &message) {
      return errorHandler(llvm::StringRef(message.str()).rtrim() + "; '" +
                          this->getArgument() +
                          "' takes: " + getOptionNames(*this));
    });
  }
};

} // namespace walrus

#endif // WALRUS_SUPPORT_LISTEDOPTIONS_H
